/**
 * Every message key, checked by the compiler: `t("events.empty")` compiles only
 * when app/locales/en/events.json has "empty" (a test checks that every other
 * language has the same keys). Type-only imports: no message reaches the
 * browser's JavaScript; the page fetches its language's catalog as data.
 */
import type account from "~/locales/en/account.json";
import type admin from "~/locales/en/admin.json";
import type audience from "~/locales/en/audience.json";
import type chart from "~/locales/en/chart.json";
import type common from "~/locales/en/common.json";
import type events from "~/locales/en/events.json";
import type forms from "~/locales/en/forms.json";
import type listen from "~/locales/en/listen.json";
import type news from "~/locales/en/news.json";
import type player from "~/locales/en/player.json";
import type podcast from "~/locales/en/podcast.json";
import type schedule from "~/locales/en/schedule.json";
import type widgets from "~/locales/en/widgets.json";

type Keys<Namespace extends string, File> = `${Namespace}.${Extract<keyof File, string>}`;

export type MessageKey =
  | Keys<"account", typeof account>
  | Keys<"admin", typeof admin>
  | Keys<"audience", typeof audience>
  | Keys<"chart", typeof chart>
  | Keys<"common", typeof common>
  | Keys<"events", typeof events>
  | Keys<"forms", typeof forms>
  | Keys<"listen", typeof listen>
  | Keys<"news", typeof news>
  | Keys<"player", typeof player>
  | Keys<"podcast", typeof podcast>
  | Keys<"schedule", typeof schedule>
  | Keys<"widgets", typeof widgets>;

/** Values for a message's {placeholders}. */
export type MessageValues = Record<string, string | number | Date | null | undefined>;
