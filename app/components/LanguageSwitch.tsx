import { Form, useLocation } from "@remix-run/react";
import { LANGUAGE_NAMES, LANGUAGES } from "~/i18n/languages";
import { useT } from "~/i18n/translate";

/**
 * Bahasa Indonesia / English. A plain form (it works without JavaScript) that
 * reloads the whole document: the new language brings its own messages.
 * Each name is written in its own language, and marked so for screen readers.
 */
export function LanguageSwitch({ className, returnTo }: { className?: string; returnTo?: string }) {
  const { t, language } = useT();
  const location = useLocation();
  return (
    <Form method="post" action="/language" reloadDocument className={`language-switch ${className ?? ""}`}>
      <input type="hidden" name="returnTo" value={returnTo ?? location.pathname + location.search} />
      <fieldset>
        <legend className="language-switch__legend">{t("common.language")}</legend>
        <div className="language-switch__options">
          {LANGUAGES.map((each) => (
            <button key={each} type="submit" name="language" value={each} lang={each} className="language-switch__option" aria-pressed={each === language}>
              {LANGUAGE_NAMES[each]}
            </button>
          ))}
        </div>
      </fieldset>
    </Form>
  );
}
