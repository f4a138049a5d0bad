import { Link } from "@remix-run/react";
import type { CSSProperties, ReactNode } from "react";
import { Icon, type IconName } from "~/components/Icon";
import { useT } from "~/i18n/translate";
import { mediaUrlFor, type MediaFile } from "~/utils/media";
import { ActionLabel } from "./ActionLabel";

/** What an admin list shows while it has nothing in it. */
export function EmptyState({ icon, children }: { icon?: IconName; children: ReactNode }) {
  return (
    <p className="empty-state">
      {icon && <Icon name={icon} />}
      {children}
    </p>
  );
}

/** The things an admin screen manages, one row each, or the empty state when there are none. */
export function AdminList<T>({
  items,
  empty,
  emptyIcon,
  children,
}: {
  items: readonly T[];
  empty: ReactNode;
  emptyIcon?: IconName;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return <EmptyState icon={emptyIcon}>{empty}</EmptyState>;
  return <ul className="admin-list">{items.map((item) => children(item))}</ul>;
}

export interface AdminListThumb {
  image: MediaFile;
  alt: string;
  /** A 4:5 poster instead of a square. */
  poster?: boolean;
}

/**
 * One row of an admin list: picture, title, details below it, and the row's buttons (edit, delete).
 * `below` spans the whole row under them: the rows of things that belong to it, each with its own buttons.
 */
export function AdminListItem({
  title,
  thumb,
  actions,
  className,
  style,
  children,
  below,
}: {
  title: ReactNode;
  thumb?: AdminListThumb | null;
  actions: ReactNode;
  className?: string;
  style?: CSSProperties;
  /** The details under the title. */
  children?: ReactNode;
  below?: ReactNode;
}) {
  return (
    <li className={className ? `admin-list__item ${className}` : "admin-list__item"} style={style}>
      {thumb && (
        <img
          className={thumb.poster ? "admin-list__thumb admin-list__thumb--poster" : "admin-list__thumb"}
          src={mediaUrlFor(thumb.image, 320)}
          alt={thumb.alt}
          width={64}
          height={thumb.poster ? 80 : 64}
          loading="lazy"
        />
      )}
      <div className="admin-list__text">
        <p className="admin-list__title">{title}</p>
        {children}
      </div>
      <div className="admin-list__actions">{actions}</div>
      {below && <div className="admin-list__below">{below}</div>}
    </li>
  );
}

/**
 * The "Edit" link of a row: opens the screen's form on that thing (a plain link to `?edit=…`).
 * Its name for screen readers is `aria-label`, or "Edit" followed by `readAlso`.
 */
export function EditLink({ to, ...spoken }: { to: string } & ({ "aria-label": string; readAlso?: never } | { readAlso: string; "aria-label"?: never })) {
  const { t } = useT();
  return (
    <Link to={to} className="button button--ghost" aria-label={spoken["aria-label"]}>
      {spoken.readAlso === undefined ? t("admin.edit") : <ActionLabel label={t("admin.edit")} readAlso={spoken.readAlso} />}
    </Link>
  );
}
