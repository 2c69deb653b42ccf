import { Mail, Phone, Server } from "lucide-react";
import { useEffect } from "react";
import { data, Form, redirect, useFetcher, useSubmit } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { NativeSelect } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { ADMIN_MESSAGES } from "~/lib/admin-messages";
import { adminMeta } from "~/lib/admin-meta";
import { CONTACT_STATUS_LABELS, CONTACT_STATUSES, type ContactStatus } from "~/lib/domain";
import { formatDateTime, isoDate } from "~/lib/format";
import { useHydrated } from "~/lib/use-hydrated";
import { PRIVATE_HEADERS, requireAdmin } from "~/server/auth.server";
import {
  listContactRequests,
  updateContactStatus,
  type AdminContactRequest,
} from "~/server/contacts.server";
import { withFlash } from "~/server/flash.server";
import { log } from "~/server/log.server";
import type { Route } from "./+types/admin-contacts";

export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS;

export const meta: Route.MetaFunction = () => adminMeta("Demandes de contact");

const statusParam = z.enum(CONTACT_STATUSES).optional().catch(undefined);

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const status = statusParam.parse(new URL(request.url).searchParams.get("status") ?? undefined);
  return { requests: await listContactRequests(status), status: status ?? null };
}

const statusFormSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  status: z.enum(CONTACT_STATUSES),
  filter: statusParam,
});

export type StatusActionData = { error: string; description?: string };

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    form = new FormData();
  }
  const parsed = statusFormSchema.safeParse({
    id: form.get("id") ?? undefined,
    status: form.get("status") ?? undefined,
    filter: form.get("filter") || undefined,
  });
  if (!parsed.success) {
    return data<StatusActionData>(
      { error: ADMIN_MESSAGES.statusFailed, description: "Statut ou demande non valide." },
      { status: 400, headers: PRIVATE_HEADERS },
    );
  }
  const { id, status, filter } = parsed.data;
  try {
    if (!(await updateContactStatus(id, status))) {
      return data<StatusActionData>(
        { error: ADMIN_MESSAGES.statusFailed, description: "Cette demande n'existe plus." },
        { status: 404, headers: PRIVATE_HEADERS },
      );
    }
  } catch (error) {
    log.error("status update failed", { requestId: context.requestId, error });
    return data<StatusActionData>(
      { error: ADMIN_MESSAGES.statusFailed },
      { status: 503, headers: PRIVATE_HEADERS },
    );
  }
  log.info("contact status updated", { requestId: context.requestId, contactId: id, status });
  throw redirect(`/admin/contacts${filter ? `?status=${filter}` : ""}`, {
    headers: withFlash(request, "statusUpdated", PRIVATE_HEADERS),
  });
}

const STATUS_BADGES: Record<ContactStatus, "secondary" | "default" | "success" | "outline"> = {
  pending: "secondary",
  in_progress: "default",
  completed: "success",
  cancelled: "outline",
};

function StatusForm({ request, filter }: { request: AdminContactRequest; filter: string | null }) {
  const fetcher = useFetcher<StatusActionData>();
  const hydrated = useHydrated();
  const pending = fetcher.formData?.get("status");
  const value = typeof pending === "string" ? pending : request.status;
  const selectId = `status-${request.id}`;

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.error) {
      toast.error(fetcher.data.error, { description: fetcher.data.description });
    }
  }, [fetcher.state, fetcher.data]);

  return (
    <fetcher.Form
      method="post"
      action="/admin/contacts"
      className="flex flex-wrap items-center gap-2"
      preventScrollReset
    >
      <input type="hidden" name="id" value={request.id} />
      {filter ? <input type="hidden" name="filter" value={filter} /> : null}
      <Label htmlFor={selectId}>Statut</Label>
      <NativeSelect
        id={selectId}
        name="status"
        className="w-44"
        value={value}
        aria-label={`Statut de la demande de ${request.name}`}
        onChange={(event) => {
          // With JavaScript the new status is saved at once.
          if (event.currentTarget.form) {
            fetcher.submit(event.currentTarget.form, { preventScrollReset: true });
          }
        }}
      >
        {CONTACT_STATUSES.map((status) => (
          <option key={status} value={status}>
            {CONTACT_STATUS_LABELS[status]}
          </option>
        ))}
      </NativeSelect>
      {hydrated ? null : (
        <Button type="submit" size="sm" variant="outline">
          Enregistrer
        </Button>
      )}
    </fetcher.Form>
  );
}

function ContactCard({ request, filter }: { request: AdminContactRequest; filter: string | null }) {
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-lg font-semibold">{request.name}</h2>
            <Badge variant={STATUS_BADGES[request.status]}>
              {CONTACT_STATUS_LABELS[request.status]}
            </Badge>
          </div>
          <p className="text-sm text-muted-foreground">
            <time dateTime={isoDate(request.createdAt)}>{formatDateTime(request.createdAt)}</time>
          </p>
        </div>
        <StatusForm request={request} filter={filter} />
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <a
            href={`mailto:${request.email}`}
            className="flex items-center gap-2 hover:text-primary"
          >
            <Mail className="size-4 text-primary" aria-hidden="true" />
            {request.email}
          </a>
          {request.phone ? (
            <a
              href={`tel:${request.phone.replace(/[^\d+]/g, "")}`}
              className="flex items-center gap-2 hover:text-primary"
            >
              <Phone className="size-4 text-primary" aria-hidden="true" />
              {request.phone}
            </a>
          ) : null}
          {request.offer ? (
            <p className="flex items-center gap-2">
              <Server className="size-4 text-primary" aria-hidden="true" />
              {request.offer.deleted ? (
                <span>
                  <span className="font-medium text-destructive">
                    {ADMIN_MESSAGES.offerDeletedLabel}
                  </span>{" "}
                  : {request.offer.title} ({request.offer.reference})
                </span>
              ) : (
                <span>
                  {request.offer.title} ({request.offer.reference})
                </span>
              )}
            </p>
          ) : null}
        </div>
        <p className="whitespace-pre-line rounded-md bg-muted/50 p-4 text-sm">{request.message}</p>
      </CardContent>
    </Card>
  );
}

export default function AdminContacts({ loaderData }: Route.ComponentProps) {
  const { requests, status } = loaderData;
  const hydrated = useHydrated();
  const submit = useSubmit();

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold">Demandes de contact</h1>
        <Form
          method="get"
          action="/admin/contacts"
          className="flex items-end gap-2"
          aria-label="Filtrer les demandes"
        >
          <div className="space-y-2">
            <Label htmlFor="status-filter">Filtrer par statut</Label>
            <NativeSelect
              id="status-filter"
              name="status"
              className="w-52"
              defaultValue={status ?? ""}
              key={status ?? "all"}
              onChange={(event) => {
                const value = event.currentTarget.value;
                submit(value ? { status: value } : null, {
                  method: "get",
                  action: "/admin/contacts",
                });
              }}
            >
              <option value="">Tous les statuts</option>
              {CONTACT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {CONTACT_STATUS_LABELS[s]}
                </option>
              ))}
            </NativeSelect>
          </div>
          {hydrated ? null : (
            <Button type="submit" variant="outline">
              Filtrer
            </Button>
          )}
        </Form>
      </div>

      {requests.length === 0 ? (
        <p className="rounded-lg border border-dashed bg-background p-8 text-center text-muted-foreground">
          {ADMIN_MESSAGES.contactsEmpty}
        </p>
      ) : (
        <ul className="space-y-4" aria-label="Demandes">
          {requests.map((request) => (
            <li key={request.id}>
              <ContactCard request={request} filter={status} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
