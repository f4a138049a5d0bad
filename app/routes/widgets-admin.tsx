import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useSubmit } from "@remix-run/react";
import { createElement, useEffect, useId, useState, type ReactNode } from "react";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import type { MessageKey } from "~/i18n/keys";
import { LANGUAGE_NAMES } from "~/i18n/languages";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listLatestEpisodes } from "~/models/episodes.server";
import { siteOrigin } from "~/models/site-origin.server";
import { requireStaff } from "~/services/admin-session.server";
import {
  embedHeight,
  embedPath,
  HISTORY_LIMITS,
  MAX_START_SECONDS,
  optionPairs,
  readWidgetOptions,
  SCHEDULE_VIEWS,
  SIZES,
  THEMES,
  WIDGET_KINDS,
  WIDGET_LANGUAGES,
  type OptionName,
  type WidgetKind,
} from "~/widgets/options";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("admin.widgetsMetaTitle") }, { name: "robots", content: "noindex" }];

const KIND_LABELS: Record<WidgetKind, MessageKey> = {
  player: "admin.widgetsKindPlayer",
  "now-playing": "admin.widgetsKindNowPlaying",
  schedule: "admin.widgetsKindSchedule",
  history: "admin.widgetsKindHistory",
  episode: "admin.widgetsKindEpisode",
};
const THEME_LABELS: Record<(typeof THEMES)[number], MessageKey> = {
  auto: "admin.widgetsThemeAuto",
  dark: "admin.widgetsThemeDark",
  light: "admin.widgetsThemeLight",
};
const SIZE_LABELS: Record<(typeof SIZES)[number], MessageKey> = {
  small: "admin.widgetsSizeSmall",
  medium: "admin.widgetsSizeMedium",
  large: "admin.widgetsSizeLarge",
};
const VIEW_LABELS: Record<(typeof SCHEDULE_VIEWS)[number], MessageKey> = { today: "admin.widgetsViewToday", week: "admin.widgetsViewWeek" };

/** The widget builder: a GET form (works without JavaScript), the live preview and the two snippets. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, "content");
  const query = new URL(request.url).searchParams;
  const asked = query.get("widget");
  const kind: WidgetKind = (WIDGET_KINDS as readonly string[]).includes(asked ?? "") ? (asked as WidgetKind) : "player";
  const [origin, episodes] = await Promise.all([siteOrigin(request.url), listLatestEpisodes(20)]);
  const check = readWidgetOptions(kind, (name) => query.get(name));
  // A first visit to the episode card picks the newest episode rather than greeting the admin with an error.
  if (kind === "episode" && check.options.episode === null && !query.has("episode") && episodes[0]) {
    check.options.episode = episodes[0].id;
    check.invalid = check.invalid.filter((name) => name !== "episode");
  }
  const { options, invalid } = check;
  const attributes = [
    ...optionPairs(kind, options),
    ...(kind === "episode" && options.episode !== null ? [["episode", String(options.episode)] as [OptionName, string]] : []),
  ];
  const tag = `spin-${kind}`;
  const attributeText = attributes.map(([name, value]) => ` ${name}="${value}"`).join("");
  const iframeSrc = `${origin}${embedPath(kind, options)}`;
  return {
    kind,
    options,
    invalid: asked !== null && asked !== kind ? [...invalid, "widget"] : invalid,
    origin,
    episodes: episodes.map((episode) => ({ id: episode.id, title: episode.title })),
    tag,
    attributes: Object.fromEntries(attributes),
    // Every value in these came through readWidgetOptions: fixed words, digits or a hex colour.
    scriptSnippet: `<script src="${origin}/widgets.js" async></script>\n<${tag}${attributeText}></${tag}>`,
    iframeSnippet: `<iframe src="${iframeSrc}" width="100%" height="${embedHeight(kind, options)}" loading="lazy" style="border:0;max-width:480px"></iframe>`,
  };
}

function Choice({
  name,
  label,
  error,
  children,
  hint,
}: {
  name: string;
  label: string;
  error?: string;
  hint?: string;
  children: (id: string, described?: string) => ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="admin-field" data-field={name}>
      <label htmlFor={id} className="admin-label">
        {label}
      </label>
      {children(id, described)}
      {hint && (
        <p id={`${id}-hint`} className="caption">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}

function Snippet({ title, hint, code }: { title: string; hint: string; code: string }) {
  const { t } = useT();
  const id = useId();
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [code]);
  return (
    <div className="admin-field widget-snippet">
      <label className="admin-label" htmlFor={id}>
        {title}
      </label>
      <textarea id={id} className="admin-input admin-input--code" readOnly value={code} rows={3} aria-describedby={`${id}-hint`} />
      <p id={`${id}-hint`} className="caption">
        {hint}
      </p>
      <div className="admin-form__actions">
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void navigator.clipboard?.writeText(code).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {t("admin.widgetsCopy")}
        </button>
        <span className="caption" aria-live="polite">
          {copied ? t("admin.widgetsCopied") : ""}
        </span>
      </div>
    </div>
  );
}

export default function WidgetsAdmin() {
  const data = useLoaderData<typeof loader>();
  const { kind, options, invalid, origin, episodes, tag, attributes } = data;
  const { t } = useT();
  const submit = useSubmit();
  const errorOf = (name: string) =>
    invalid.includes(name)
      ? name === "episode" && kind === "episode" && options.episode === null
        ? t("admin.widgetsEpisodeRequired")
        : t("admin.widgetsInvalid")
      : undefined;
  // The preview is the real widget: the script loads once (the page's CSP allows this origin's scripts).
  useEffect(() => {
    if (customElements.get("spin-player") || document.querySelector("script[data-widgets]")) return;
    const script = document.createElement("script");
    script.src = "/widgets.js";
    script.dataset.widgets = "";
    document.head.append(script);
  }, []);
  const select = (name: string, value: string, choices: [string, string][]) => (id: string, described?: string) => (
    <select id={id} name={name} className="admin-input" defaultValue={value} aria-describedby={described} aria-invalid={invalid.includes(name) || undefined}>
      {choices.map(([choice, label]) => (
        <option key={choice} value={choice}>
          {label}
        </option>
      ))}
    </select>
  );
  const usesEpisode = kind === "player" || kind === "episode";
  return (
    <AdminPage title={t("admin.widgetsTitle")} intro={t("admin.widgetsIntro")}>
      <div className="widget-builder">
        <AdminSection id="widget-options" title={t("admin.widgetsChoose")}>
          {/* Each change redraws the preview; without JavaScript the button does. */}
          <Form method="get" className="admin-form__fields" onChange={(event) => submit(event.currentTarget, { replace: true, preventScrollReset: true })}>
            <Choice name="widget" label={t("admin.widgetsKind")} error={errorOf("widget")}>
              {select(
                "widget",
                kind,
                WIDGET_KINDS.map((each) => [each, t(KIND_LABELS[each])]),
              )}
            </Choice>
            <div className="admin-form__row">
              <Choice name="theme" label={t("admin.widgetsTheme")} error={errorOf("theme")}>
                {select(
                  "theme",
                  options.theme,
                  THEMES.map((each) => [each, t(THEME_LABELS[each])]),
                )}
              </Choice>
              <Choice name="size" label={t("admin.widgetsSize")} error={errorOf("size")}>
                {select(
                  "size",
                  options.size,
                  SIZES.map((each) => [each, t(SIZE_LABELS[each])]),
                )}
              </Choice>
            </div>
            <div className="admin-form__row">
              <Choice name="lang" label={t("admin.widgetsLanguage")} error={errorOf("lang")}>
                {select("lang", options.lang ?? "", [
                  ["", t("admin.widgetsLanguageStation")],
                  ...WIDGET_LANGUAGES.map((each): [string, string] => [each, LANGUAGE_NAMES[each]]),
                ])}
              </Choice>
              <Choice name="accent" label={t("admin.widgetsAccent")} hint={t("admin.widgetsAccentHint")} error={errorOf("accent")}>
                {(id, described) => (
                  <input
                    id={id}
                    name="accent"
                    className="admin-input"
                    defaultValue={options.accent ?? ""}
                    maxLength={7}
                    pattern="#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})"
                    spellCheck={false}
                    aria-describedby={described}
                    aria-invalid={invalid.includes("accent") || undefined}
                  />
                )}
              </Choice>
            </div>
            {usesEpisode && (
              <div className="admin-form__row">
                <Choice name="episode" label={t("admin.widgetsEpisode")} error={errorOf("episode")}>
                  {select("episode", options.episode === null ? "" : String(options.episode), [
                    ...(kind === "player" ? [["", t("admin.widgetsEpisodeLive")] as [string, string]] : []),
                    ...episodes.map((episode): [string, string] => [String(episode.id), episode.title]),
                  ])}
                </Choice>
                <Choice name="t" label={t("admin.widgetsStart")} error={errorOf("t")}>
                  {(id, described) => (
                    <input
                      id={id}
                      name="t"
                      type="number"
                      min={0}
                      max={MAX_START_SECONDS}
                      className="admin-input"
                      defaultValue={options.start ?? ""}
                      aria-describedby={described}
                      aria-invalid={invalid.includes("t") || undefined}
                    />
                  )}
                </Choice>
              </div>
            )}
            {kind === "schedule" && (
              <Choice name="view" label={t("admin.widgetsView")} error={errorOf("view")}>
                {select(
                  "view",
                  options.view,
                  SCHEDULE_VIEWS.map((each) => [each, t(VIEW_LABELS[each])]),
                )}
              </Choice>
            )}
            {kind === "history" && (
              <Choice name="limit" label={t("admin.widgetsLimit")} error={errorOf("limit")}>
                {(id, described) => (
                  <input
                    id={id}
                    name="limit"
                    type="number"
                    min={HISTORY_LIMITS.min}
                    max={HISTORY_LIMITS.max}
                    className="admin-input"
                    defaultValue={options.limit}
                    aria-describedby={described}
                    aria-invalid={invalid.includes("limit") || undefined}
                  />
                )}
              </Choice>
            )}
            <div className="admin-form__actions">
              <button type="submit" className="button">
                {t("admin.widgetsUpdate")}
              </button>
            </div>
          </Form>
        </AdminSection>
        <AdminSection id="widget-preview" title={t("admin.widgetsPreview")} description={t("admin.widgetsPreviewHint")}>
          <div className="widget-builder__preview" data-testid="widget-preview">
            {/* Re-created when the widget changes, so it starts from its new attributes. */}
            {createElement(tag, { key: tag, ...attributes })}
          </div>
          <Snippet title={t("admin.widgetsScriptSnippet")} hint={t("admin.widgetsScriptHint", { origin })} code={data.scriptSnippet} />
          <Snippet title={t("admin.widgetsIframeSnippet")} hint={t("admin.widgetsIframeHint", { origin })} code={data.iframeSnippet} />
        </AdminSection>
      </div>
    </AdminPage>
  );
}
