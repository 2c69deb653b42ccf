-- The first answer of the requests answered before the column existed (status change or note).
UPDATE contact_requests r SET first_answered_at = least(
  (SELECT min(s.created_at) FROM contact_status_changes s WHERE s.contact_request_id = r.id),
  (SELECT min(n.created_at) FROM contact_notes n WHERE n.contact_request_id = r.id)
) WHERE first_answered_at IS NULL
  AND (EXISTS (SELECT 1 FROM contact_status_changes s WHERE s.contact_request_id = r.id)
    OR EXISTS (SELECT 1 FROM contact_notes n WHERE n.contact_request_id = r.id));
