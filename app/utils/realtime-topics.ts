/** The realtime contract's event names (README "Realtime"), shared by the server and the pages. */
export type RealtimeTopic = "events:changed" | "embeds:changed" | "images:changed" | "schedule:changed" | "history:changed" | "nowplaying:changed";
