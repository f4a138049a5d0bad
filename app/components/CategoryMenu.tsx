import { Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { NewsCategory } from "~/services/news.server";
import { useT } from "~/i18n/translate";
import { Icon } from "./Icon";

/** Where a news category is read: /news for the latest posts, /news?category=<name> for the rest. */
export function categoryHref(category: NewsCategory): string {
  return category.name === "terbaru" ? "/news" : `/news?category=${encodeURIComponent(category.name)}`;
}

/** The categories as a row of chips; `current` marks the one on screen. */
export function CategoryList({ categories, current, label }: { categories: NewsCategory[]; current?: string; label: string }) {
  return (
    <nav aria-label={label}>
      <ul className="category-chips">
        {categories.map((category) => (
          <li key={category.name}>
            <Link to={categoryHref(category)} className="category-chip" aria-current={category.name === current ? "page" : undefined} prefetch="intent">
              {category.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The category dropdown: a native <details>, so it opens and hides without
 * JavaScript; with it, Escape and a click elsewhere close it too.
 */
export function CategoryMenu({ categories, current }: { categories: NewsCategory[]; current?: string }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const { t } = useT();
  useEffect(() => {
    const close = (event: Event) => {
      const menu = ref.current;
      if (!menu?.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== "Escape") return;
        menu.open = false;
        menu.querySelector("summary")?.focus();
      } else if (!menu.contains(event.target as Node)) {
        menu.open = false;
      }
    };
    document.addEventListener("keydown", close);
    document.addEventListener("click", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("click", close);
    };
  }, []);

  const currentLabel = categories.find((category) => category.name === current)?.label;
  return (
    <details className="category-menu" ref={ref}>
      <summary className="button button--ghost category-menu__toggle">
        <span>
          {t("news.categoryMenu")}
          {currentLabel ? <span className="category-menu__current">: {currentLabel}</span> : null}
        </span>
        <Icon name="chevronDown" size={20} />
      </summary>
      <ul className="category-menu__list">
        {categories.map((category) => (
          <li key={category.name}>
            <Link
              to={categoryHref(category)}
              className="category-menu__item"
              aria-current={category.name === current ? "page" : undefined}
              onClick={() => ref.current?.removeAttribute("open")}
            >
              {category.label}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
