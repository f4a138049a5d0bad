import { Link, useActionData, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { useState, type ReactNode } from "react";
import { useT } from "~/i18n/translate";
import { PageReportProvider, type AdminResult } from "./AdminForm";

/** The frame of every admin screen: title and the page's status line (the header's admin strip navigates). */
export function AdminPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  const actionData = useActionData<AdminResult | undefined>();
  const { t } = useT();
  const [latest, setLatest] = useState<AdminResult | null>(null);
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const { pathname } = useLocation();
  const settingsPending = root?.settingsPending && pathname !== "/settings-admin";
  const pageResult = latest ? (latest.scope === "page" ? latest : null) : actionData?.scope === "page" ? actionData : null;
  return (
    <div className="container admin-page">
      <header className="admin-page__head">
        <p className="admin-badge">{t("admin.badge")}</p>
        <h1 className="page-title">{title}</h1>
        <p className="muted admin-page__intro">{intro}</p>
      </header>
      {settingsPending && (
        <p className="admin-status admin-setup-banner">
          {t("admin.settingsSetupBanner")} <Link to="/settings-admin">{t("admin.settingsSetupLink")}</Link>
        </p>
      )}
      <div className="admin-page__status" aria-live="polite">
        {pageResult && <p className={`admin-status ${pageResult.ok ? "admin-status--ok" : "admin-status--error"}`}>{pageResult.message}</p>}
      </div>
      <PageReportProvider value={{ report: setLatest, latest }}>{children}</PageReportProvider>
    </div>
  );
}

/**
 * A titled block of an admin screen. Collapsible ones are a <details> (works
 * without JavaScript), so a long admin page folds down on a phone.
 */
export function AdminSection({
  id,
  title,
  description,
  actions,
  collapsible,
  defaultOpen = true,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  collapsible?: boolean;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  const heading = (
    <div>
      <h2 id={id} className="admin-section__title">
        {title}
      </h2>
      {description && <p className="muted admin-section__description">{description}</p>}
    </div>
  );
  if (collapsible) {
    return (
      <section className="admin-section admin-section--collapsible" aria-labelledby={id}>
        <details open={defaultOpen}>
          <summary className="admin-section__head admin-section__summary">{heading}</summary>
          {actions && <div className="admin-section__actions">{actions}</div>}
          {children}
        </details>
      </section>
    );
  }
  return (
    <section className="admin-section" aria-labelledby={id}>
      <div className="admin-section__head">
        {heading}
        {actions}
      </div>
      {children}
    </section>
  );
}
