import { data, type ServerBuild } from "@remix-run/node";
import { isDatabaseUnavailableError } from "~/services/database-check.server";
import { serverI18n } from "~/i18n/catalogs.server";
import { resolveLanguage } from "~/i18n/language.server";
import { translator } from "~/i18n/translate";
import { errorText, logger } from "~/services/log.server";

const LOG_EVERY_MS = 10_000;
let lastLoggedAt = 0;

type Handler = (...args: never[]) => unknown;

function answerOutagesWith503<F extends Handler>(handler: F): F {
  return (async (...args: Parameters<F>) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (!isDatabaseUnavailableError(error)) throw error;
      // One line per outage window, not one per request.
      if (Date.now() - lastLoggedAt > LOG_EVERY_MS) {
        lastLoggedAt = Date.now();
        logger.error({ error: errorText(error).trim().split("\n").pop() }, "Database unavailable, answering 503");
      }
      // In the page's language, but not the account's: reading the account needs the database.
      const { t } = translator(serverI18n(await resolveLanguage((args[0] as { request: Request }).request)));
      throw data(t("common.databaseOutage"), { status: 503, statusText: "Service Unavailable" });
    }
  }) as F;
}

/**
 * The build with every loader and action wrapped once, here, rather than in
 * each route: a lost database connection becomes a 503 that the root error
 * boundary shows as a friendly page; any other error is left as it was.
 * The pool reconnects by itself, so the next request after recovery succeeds.
 */
export function withDatabaseOutagePages(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const { loader, action } = route.module;
      const module = {
        ...route.module,
        ...(loader && { loader: answerOutagesWith503(loader) }),
        ...(action && { action: answerOutagesWith503(action) }),
      };
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes };
}
