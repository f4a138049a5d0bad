/**
 * Every message file, by language and namespace. A namespace is one area of the
 * station (the player, the events, the admin area, ...); its file holds ICU
 * MessageFormat texts by key, and the key is used as "namespace.key" in code.
 *
 * Adding a language or a namespace means adding its files here (see the README).
 */
import enAccount from "./en/account.json";
import enAdmin from "./en/admin.json";
import enAudience from "./en/audience.json";
import enChart from "./en/chart.json";
import enCommon from "./en/common.json";
import enEvents from "./en/events.json";
import enForms from "./en/forms.json";
import enListen from "./en/listen.json";
import enNews from "./en/news.json";
import enPlayer from "./en/player.json";
import enPodcast from "./en/podcast.json";
import enSchedule from "./en/schedule.json";
import enWidgets from "./en/widgets.json";
import idAccount from "./id/account.json";
import idAdmin from "./id/admin.json";
import idAudience from "./id/audience.json";
import idChart from "./id/chart.json";
import idCommon from "./id/common.json";
import idEvents from "./id/events.json";
import idForms from "./id/forms.json";
import idListen from "./id/listen.json";
import idNews from "./id/news.json";
import idPlayer from "./id/player.json";
import idPodcast from "./id/podcast.json";
import idSchedule from "./id/schedule.json";
import idWidgets from "./id/widgets.json";
import type { Language } from "~/i18n/languages";

export type MessageFile = Record<string, string>;

export const messageFiles: Record<Language, Record<string, MessageFile>> = {
  en: {
    account: enAccount,
    admin: enAdmin,
    audience: enAudience,
    chart: enChart,
    common: enCommon,
    events: enEvents,
    forms: enForms,
    listen: enListen,
    news: enNews,
    player: enPlayer,
    podcast: enPodcast,
    schedule: enSchedule,
    widgets: enWidgets,
  },
  id: {
    account: idAccount,
    admin: idAdmin,
    audience: idAudience,
    chart: idChart,
    common: idCommon,
    events: idEvents,
    forms: idForms,
    listen: idListen,
    news: idNews,
    player: idPlayer,
    podcast: idPodcast,
    schedule: idSchedule,
    widgets: idWidgets,
  },
};
