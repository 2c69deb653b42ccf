import { useEffect, useRef } from "react";
import { X } from "lucide-react";
import { timeToast } from "~/client/toast";
import type { FlashToast as FlashToastData } from "~/lib/admin-messages";
import * as dom from "~/lib/dom-hooks";

/**
 * The flash message of the root loader (e.g. 'Déconnexion réussie' after a redirect) as the site's
 * one toast (app/client/toast.ts): at the top of the page without JavaScript, a toast with it,
 * whether the page hydrates or not. Keyed by the message's id: a new message is a new element.
 */
export function FlashToast({ toast }: { toast: FlashToastData | null }) {
  if (!toast) return null;
  return <FlashToastElement key={toast.id} toast={toast} />;
}

function FlashToastElement({ toast }: { toast: FlashToastData }) {
  const ref = useRef<HTMLDivElement>(null);
  // On a hydrated page, a message that comes with a navigation: the page's script timed only the
  // toasts of the first load.
  useEffect(() => {
    if (ref.current) timeToast(ref.current);
  }, []);
  return (
    <div
      ref={ref}
      role={toast.type === "error" ? "alert" : "status"}
      {...dom.hook(dom.TOAST, toast.type)}
    >
      <p>{toast.title}</p>
      {toast.description ? <p>{toast.description}</p> : null}
      <button type="button" {...dom.hook(dom.TOAST_CLOSE)} aria-label="Fermer">
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
