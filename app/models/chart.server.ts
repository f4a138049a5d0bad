import { EMBED_REFERRER_POLICY, EMBED_SANDBOX, sanitizeEmbed } from "~/services/embed-sanitizer.server";
import { listEmbeds } from "./embeds.server";

/**
 * The chart embeds as iframe attributes for React to render (never as HTML).
 * Stored codes are re-read through the same sanitiser that admitted them, so a
 * host later dropped from the allow-list stops rendering too.
 */
export async function listChartFrames() {
  const embeds = await listEmbeds();
  return embeds.flatMap((embed) => {
    const check = sanitizeEmbed(embed.code);
    if (!check.ok) return [];
    const { src, title, height, allow, allowFullScreen } = check.attributes;
    return [{ id: embed.id, src, title, height, allow, allowFullScreen, sandbox: EMBED_SANDBOX, referrerPolicy: EMBED_REFERRER_POLICY }];
  });
}
