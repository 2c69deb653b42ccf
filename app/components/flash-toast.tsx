import { useEffect } from "react";
import { toast as showToast } from "sonner";
import type { FlashToast as FlashToastData } from "~/lib/admin-messages";
import { useHydrated } from "~/hooks/use-hydrated";
import { cn } from "~/lib/utils";

/** Shows the flash message of the root loader as a sonner toast, once per message. */
export function FlashToast({ toast }: { toast: FlashToastData | null }) {
  useEffect(() => {
    if (!toast) return;
    showToast[toast.type](toast.title, { id: toast.id, description: toast.description });
  }, [toast]);
  return null;
}

/**
 * The same message for browsers without JavaScript: a bar at the top of the page. The theme boot
 * script marks <html> with the class 'js' before first paint, which hides it when toasts work,
 * and it is dropped once React has hydrated.
 */
export function FlashBanner({ toast }: { toast: FlashToastData | null }) {
  const hydrated = useHydrated();
  if (!toast || hydrated) return null;
  return (
    <div
      role="status"
      className={cn(
        "border-b px-4 py-3 text-center text-sm [.js_&]:hidden",
        toast.type === "error"
          ? "border-destructive/50 bg-destructive/10 text-destructive"
          : "border-success/50 bg-success/10",
      )}
    >
      <span className="font-semibold">{toast.title}</span>
      {toast.description ? <span> — {toast.description}</span> : null}
    </div>
  );
}
