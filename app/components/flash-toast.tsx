import { useEffect } from "react";
import { toast as showToast } from "sonner";
import type { FlashToast as FlashToastData } from "~/lib/admin-messages";

/**
 * Shows the flash message of the root loader as a sonner toast, once per message. Without
 * JavaScript, the same message is rendered in a <noscript> banner.
 */
export function FlashToast({ toast }: { toast: FlashToastData | null }) {
  useEffect(() => {
    if (!toast) return;
    showToast[toast.type](toast.title, { id: toast.id, description: toast.description });
  }, [toast]);
  if (!toast) return null;
  return (
    <noscript>
      <div
        role="status"
        className={
          toast.type === "error"
            ? "fixed right-4 top-4 z-50 max-w-sm rounded-md border border-destructive/50 bg-background p-4 text-destructive shadow-lg"
            : "fixed right-4 top-4 z-50 max-w-sm rounded-md border border-success/50 bg-background p-4 shadow-lg"
        }
      >
        <p className="font-semibold">{toast.title}</p>
        {toast.description ? <p className="text-sm">{toast.description}</p> : null}
      </div>
    </noscript>
  );
}
