import { useEffect, useState } from "react";
import { useT } from "~/i18n/translate";

/**
 * Registers the service worker (public/service-worker.js) and says when a new build's worker is
 * waiting. It waits on purpose, so an open page keeps the files it was built with; "Reload" lets
 * it take over, and every open page then reloads onto the new build together (controllerchange).
 */
export function AppUpdate() {
  const { t } = useT();
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const container = navigator.serviceWorker;
    // Only a page that already had a worker reloads: the very first one takes over a page that is current.
    const hadController = Boolean(container.controller);
    let reloading = false;
    const onControllerChange = () => {
      if (!hadController || reloading) return;
      reloading = true;
      window.location.reload();
    };
    container.addEventListener("controllerchange", onControllerChange);
    let cancelled = false;
    let checkForUpdate = () => {};
    container.register("/service-worker.js", { scope: "/" }).then(
      (registration) => {
        if (cancelled) return;
        const offer = () => {
          if (registration.waiting && container.controller) setWaiting(registration.waiting);
        };
        offer();
        // Browsers look for a new worker on full page loads; a page left open all day looks when shown again.
        checkForUpdate = () => {
          if (document.visibilityState === "visible") registration.update().catch(() => {});
        };
        document.addEventListener("visibilitychange", checkForUpdate);
        registration.addEventListener("updatefound", () => {
          registration.installing?.addEventListener("statechange", offer);
        });
      },
      (error: unknown) => console.warn("No service worker: the site works, but not offline.", error),
    );
    return () => {
      cancelled = true;
      container.removeEventListener("controllerchange", onControllerChange);
      document.removeEventListener("visibilitychange", checkForUpdate);
    };
  }, []);

  if (!waiting) return null;
  return (
    <div className="app-update" role="status">
      <p>{t("common.updateReady")}</p>
      <button type="button" className="button" onClick={() => waiting.postMessage({ type: "SKIP_WAITING" })}>
        {t("common.updateReload")}
      </button>
    </div>
  );
}
