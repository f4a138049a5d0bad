import path from "node:path";
import { isLanguage, LANGUAGES, type Language } from "~/i18n/languages";
import type { StationSettingsValues } from "~/utils/forms/settings";
import { LOG_LEVELS, type LogLevel } from "./log.server";
import { peekSingleton, singleton, setSingleton } from "./singleton.server";

/** A bad configuration value: the server prints the message as one line and exits. */
export class ConfigError extends Error {
  name = "ConfigError";
}

export interface S3Config {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

export interface StationIdentity {
  name: string;
  tagline: string;
  accentColor: string;
  logoUrl: string | null;
  /** Contact address published in the podcast feed (podcast directories ask for one). */
  email: string | null;
  socialLinks: { label: string; url: string }[];
}

/** The station as configured: without STATION_TAGLINE the tagline is ours, said in each reader's language. */
export type StationSettings = Omit<StationIdentity, "tagline"> & { tagline: string | null };

export interface AppConfig {
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Extra attempts, with backoff, to reach the database at start (DB_CONNECT_RETRIES); 0 fails at once. */
  databaseConnectRetries: number;
  s3: S3Config | null;
  /** Null when unset: the server then generates one and keeps it under dataDir. */
  sessionSecret: string | null;
  /** Null when unset: a random PIN is generated on first start and stored hashed. */
  adminPin: string | null;
  publicPin: string | null;
  streamUrl: string | null;
  newsApiUrl: string;
  google: { clientId: string; clientSecret: string } | null;
  stationTimezone: string;
  /** The station's own language (STATION_LANGUAGE): the default for a listener whose browser names none of ours. */
  stationLanguage: Language;
  /** The address listeners use, for links that leave the site (OAuth callback, feeds). */
  publicUrl: string | null;
  /** Bearer token that opens /metrics and /healthz details to callers other than loopback (METRICS_TOKEN). */
  metricsToken: string | null;
  /** Hops of reverse proxies to trust for the client's address (TRUST_PROXY). */
  trustProxy: number;
  /** Live-update sockets one client address may hold at once. */
  realtimeMaxPerAddress: number;
  /** Files in storage younger than this are never swept as orphans: they may be uploads in flight. */
  orphanGraceSeconds: number;
  /** Song history older than this many days is pruned (HISTORY_DAYS). */
  historyDays: number;
  /** Hours of the live stream kept for rewinding and show archives (REWIND_HOURS); 0 records nothing. */
  rewindHours: number;
  /** Icecast's admin account (ICECAST_ADMIN_USER, ICECAST_ADMIN_PASSWORD): with it the audience reads each listener from /admin/listclients. */
  icecastAdminUser: string;
  icecastAdminPassword: string | null;
  /** Seconds between two reads of Icecast's listeners (AUDIENCE_POLL_SECONDS). */
  audiencePollSeconds: number;
  /** Days raw listening sessions are kept before only their hourly aggregates remain (AUDIENCE_SESSION_DAYS). */
  audienceSessionDays: number;
  /** Days the audience aggregates and counted downloads are kept (AUDIENCE_RETENTION_DAYS). */
  audienceRetentionDays: number;
  /** Fill an empty station with the bundled demo content on first start. */
  seedContent: boolean;
  /** Hosts whose https iframes admins may embed on the chart page ("*.host" also allows subdomains). */
  embedAllowedHosts: string[];
  /** Push services (origins, "*." for subdomains) the station sends Web Push messages to: a subscription elsewhere is refused. */
  pushServiceOrigins: string[];
  station: StationSettings;
  /** The least severe log lines written (LOG_LEVEL): fatal, error, warn, info, debug, trace or silent. */
  logLevel: LogLevel;
  /** The station settings the environment sets: an admin sees them read-only on /settings-admin. */
  fixedSettings: SettingName[];
}

/**
 * What an admin may change on /settings-admin, each with the variable that fixes it when set.
 * Stored in the database (app/models/station-settings.server.ts); the environment still wins.
 */
export const SETTING_VARIABLES = {
  name: "STATION_NAME",
  tagline: "STATION_TAGLINE",
  logoUrl: "STATION_LOGO_URL",
  accentColor: "STATION_ACCENT_COLOR",
  timeZone: "STATION_TIMEZONE",
  language: "STATION_LANGUAGE",
  email: "STATION_EMAIL",
  socialLinks: "STATION_SOCIAL_LINKS",
  streamUrl: "STREAM_URL",
  rewindHours: "REWIND_HOURS",
  historyDays: "HISTORY_DAYS",
} as const;
export type SettingName = keyof typeof SETTING_VARIABLES;

/** Settings saved by an admin (every field optional: a station that never saved has none), as their schema reads them. */
export type StoredSettings = StationSettingsValues;

type Env = Record<string, string | undefined>;

const DEFAULT_NEWS_API_URL = "https://api-berita-indonesia.vercel.app";

// Spotify, YouTube, SoundCloud, Apple Music, Deezer and Mixcloud players.
export const DEFAULT_EMBED_ALLOWED_HOSTS = [
  "open.spotify.com",
  "www.youtube.com",
  "www.youtube-nocookie.com",
  "w.soundcloud.com",
  "embed.music.apple.com",
  "widget.deezer.com",
  "player-widget.mixcloud.com",
  "www.mixcloud.com",
];

// The push services of Chrome/Edge/Android (FCM, WNS), Firefox and Safari.
export const DEFAULT_PUSH_SERVICE_ORIGINS = [
  "https://fcm.googleapis.com",
  "https://updates.push.services.mozilla.com",
  "https://web.push.apple.com",
  "https://*.push.apple.com",
  "https://*.notify.windows.com",
];

function text(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function urlSetting(env: Env, name: string, protocols = ["http:", "https:"]): string | null {
  const value = text(env, name);
  if (value === null) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${value}")`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => p + "//").join(" or ")} (got "${value}")`);
  }
  return value.replace(/\/+$/, "");
}

function wholeNumber(env: Env, name: string, fallback: number, max: number, min = 0): number {
  const value = text(env, name);
  if (value === null) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > max || number < min) {
    throw new ConfigError(`${name} must be a whole number between ${min} and ${max} (got "${value}")`);
  }
  return number;
}

function historyDays(env: Env): number {
  const days = wholeNumber(env, "HISTORY_DAYS", 365, 36500);
  if (days === 0) throw new ConfigError(`HISTORY_DAYS must be a whole number between 1 and 36500 (got "0")`);
  return days;
}

function realtimeMaxPerAddress(env: Env): number {
  const cap = wholeNumber(env, "REALTIME_MAX_PER_ADDRESS", 50, 1_000_000);
  if (cap === 0) throw new ConfigError(`REALTIME_MAX_PER_ADDRESS must be a whole number between 1 and 1000000 (got "0")`);
  return cap;
}

function s3(env: Env): S3Config | null {
  const names = ["S3_ENDPOINT", "S3_ACCESS_KEY", "S3_SECRET_KEY", "S3_BUCKET"] as const;
  const values = names.map((name) => text(env, name));
  if (values.every((value) => value === null)) return null;
  const missing = names.filter((_, i) => values[i] === null);
  if (missing.length > 0) {
    throw new ConfigError(`S3 storage needs all of ${names.join(", ")}; missing ${missing.join(", ")}`);
  }
  const bucket = values[3]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(`S3_BUCKET must be a valid bucket name (3-63 lowercase letters, digits, dots, dashes; got "${bucket}")`);
  }
  return {
    endpoint: urlSetting(env, "S3_ENDPOINT")!,
    accessKey: values[1]!,
    secretKey: values[2]!,
    bucket,
    region: text(env, "S3_REGION") ?? "us-east-1",
  };
}

function pin(env: Env, name: string, pattern: RegExp, rule: string): string | null {
  const value = env[name];
  if (value === undefined || value === "") return null;
  if (!pattern.test(value)) throw new ConfigError(`${name} must be ${rule}`);
  return value;
}

function logLevel(env: Env): LogLevel {
  const value = text(env, "LOG_LEVEL")?.toLowerCase() ?? "info";
  const level = LOG_LEVELS.find((name) => name === value);
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${value}")`);
  return level;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const value = text(env, name)?.toLowerCase();
  if (value === undefined || value === null) return fallback;
  if (["1", "true", "yes", "on"].includes(value)) return true;
  if (["0", "false", "no", "off"].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false (got "${value}")`);
}

function timezone(env: Env): string {
  const value = text(env, "STATION_TIMEZONE") ?? "Asia/Jakarta";
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
  } catch {
    throw new ConfigError(`STATION_TIMEZONE must be an IANA time zone such as Asia/Jakarta (got "${value}")`);
  }
  return value;
}

function language(env: Env): Language {
  const value = text(env, "STATION_LANGUAGE")?.toLowerCase() ?? "id";
  if (!isLanguage(value)) throw new ConfigError(`STATION_LANGUAGE must be one of ${LANGUAGES.join(", ")} (got "${value}")`);
  return value;
}

function embedHosts(env: Env): string[] {
  const value = text(env, "EMBED_ALLOWED_HOSTS");
  if (value === null) return DEFAULT_EMBED_ALLOWED_HOSTS;
  const hosts = value
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const host of hosts) {
    if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(host)) {
      throw new ConfigError(`EMBED_ALLOWED_HOSTS must be host names separated by commas, like open.spotify.com or *.example.com (got "${host}")`);
    }
  }
  if (hosts.length === 0) throw new ConfigError("EMBED_ALLOWED_HOSTS must name at least one host");
  return hosts;
}

function pushServiceOrigins(env: Env): string[] {
  const value = text(env, "PUSH_SERVICE_ORIGINS");
  if (value === null) return DEFAULT_PUSH_SERVICE_ORIGINS;
  const origins = value
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/.test(origin)) {
      throw new ConfigError(
        `PUSH_SERVICE_ORIGINS must be origins separated by commas, like https://fcm.googleapis.com or https://*.push.apple.com (got "${origin}")`,
      );
    }
  }
  if (origins.length === 0) throw new ConfigError("PUSH_SERVICE_ORIGINS must name at least one origin");
  return origins;
}

function stationEmail(env: Env): string | null {
  const value = text(env, "STATION_EMAIL");
  if (value !== null && !/^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/.test(value)) {
    throw new ConfigError(`STATION_EMAIL must be an email address (got "${value}")`);
  }
  return value;
}

function station(env: Env): StationSettings {
  const accentColor = text(env, "STATION_ACCENT_COLOR") ?? "#ff3d6e";
  if (!/^#[0-9a-fA-F]{6}$/.test(accentColor)) {
    throw new ConfigError(`STATION_ACCENT_COLOR must be a colour like #ff3d6e (got "${accentColor}")`);
  }
  const socialLinks = (text(env, "STATION_SOCIAL_LINKS") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [label, ...rest] = entry.split("=");
      const url = rest.join("=").trim();
      if (!label?.trim() || !/^https?:\/\/\S+$/.test(url)) {
        throw new ConfigError(`STATION_SOCIAL_LINKS must be "Label=https://..." pairs separated by commas (got "${entry}")`);
      }
      return { label: label.trim(), url };
    });
  return {
    name: text(env, "STATION_NAME") ?? "SPIN RADIO",
    tagline: text(env, "STATION_TAGLINE"),
    accentColor: accentColor.toLowerCase(),
    logoUrl: urlSetting(env, "STATION_LOGO_URL"),
    email: stationEmail(env),
    socialLinks,
  };
}

/** Reads and validates the whole configuration; throws ConfigError with one clear line. */
export function loadConfig(env: Env = process.env): AppConfig {
  const clientId = text(env, "GOOGLE_CLIENT_ID");
  const clientSecret = text(env, "GOOGLE_CLIENT_SECRET");
  if ((clientId === null) !== (clientSecret === null)) {
    throw new ConfigError("Google sign-in needs both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET");
  }
  const sessionSecret = text(env, "SESSION_SECRET");
  if (sessionSecret !== null && sessionSecret.length < 16) {
    throw new ConfigError("SESSION_SECRET must be at least 16 characters");
  }
  return {
    production: env.NODE_ENV === "production",
    port: wholeNumber(env, "PORT", 3000, 65535),
    host: text(env, "HOST") ?? "0.0.0.0",
    dataDir: path.resolve(text(env, "DATA_DIR") ?? "data"),
    databaseUrl: urlSetting(env, "DATABASE_URL", ["postgres:", "postgresql:"]),
    databaseConnectRetries: wholeNumber(env, "DB_CONNECT_RETRIES", 0, 100),
    orphanGraceSeconds: wholeNumber(env, "ORPHAN_GRACE_SECONDS", 3600, 7 * 24 * 3600),
    historyDays: historyDays(env),
    // A week at most: at 128 kb/s that is about 10 GB of storage.
    rewindHours: wholeNumber(env, "REWIND_HOURS", 6, 168),
    s3: s3(env),
    icecastAdminUser: text(env, "ICECAST_ADMIN_USER") ?? "admin",
    icecastAdminPassword: text(env, "ICECAST_ADMIN_PASSWORD"),
    audiencePollSeconds: wholeNumber(env, "AUDIENCE_POLL_SECONDS", 30, 3600, 1),
    audienceSessionDays: wholeNumber(env, "AUDIENCE_SESSION_DAYS", 30, 3650, 2),
    audienceRetentionDays: wholeNumber(env, "AUDIENCE_RETENTION_DAYS", 730, 36500, 1),
    sessionSecret,
    adminPin: pin(env, "ADMIN_PIN", /^\d{6}$/, "exactly 6 digits"),
    publicPin: pin(env, "PUBLIC_PIN", /^\S{5}$/, "exactly 5 characters without spaces"),
    streamUrl: urlSetting(env, "STREAM_URL"),
    newsApiUrl: urlSetting(env, "NEWS_API_URL") ?? DEFAULT_NEWS_API_URL,
    google: clientId && clientSecret ? { clientId, clientSecret } : null,
    stationTimezone: timezone(env),
    stationLanguage: language(env),
    publicUrl: urlSetting(env, "PUBLIC_URL"),
    metricsToken: text(env, "METRICS_TOKEN"),
    seedContent: flag(env, "SEED_CONTENT", true),
    trustProxy: wholeNumber(env, "TRUST_PROXY", 0, 10),
    realtimeMaxPerAddress: realtimeMaxPerAddress(env),
    embedAllowedHosts: embedHosts(env),
    pushServiceOrigins: pushServiceOrigins(env),
    station: station(env),
    logLevel: logLevel(env),
    fixedSettings: (Object.keys(SETTING_VARIABLES) as SettingName[]).filter((name) => text(env, SETTING_VARIABLES[name]) !== null),
  };
}

/** `config` with the admin's stored settings in place of the defaults; a variable the environment sets still wins. */
export function withStoredSettings(config: AppConfig, stored: StoredSettings): AppConfig {
  const free = (name: SettingName) => stored[name] !== undefined && !config.fixedSettings.includes(name);
  const pick = <K extends SettingName, T>(name: K, current: T): T => (free(name) ? (stored[name] as T) : current);
  return {
    ...config,
    stationTimezone: pick("timeZone", config.stationTimezone),
    stationLanguage: pick("language", config.stationLanguage),
    streamUrl: pick("streamUrl", config.streamUrl),
    rewindHours: pick("rewindHours", config.rewindHours),
    historyDays: pick("historyDays", config.historyDays),
    station: {
      name: pick("name", config.station.name),
      tagline: pick("tagline", config.station.tagline),
      accentColor: pick("accentColor", config.station.accentColor),
      logoUrl: pick("logoUrl", config.station.logoUrl),
      email: pick("email", config.station.email),
      socialLinks: pick("socialLinks", config.station.socialLinks),
    },
  };
}

/**
 * The configuration in force: the one the server was started with, overlaid with the settings an
 * admin saved (setStoredSettings). Synchronous on purpose: some thirty call sites (page loaders,
 * feeds, schedules) read the station's name or time zone, and an in-process snapshot refreshed on
 * every change keeps them all plain reads instead of each awaiting the database.
 */
export function getConfig(): AppConfig {
  const base = getBaseConfig();
  const stored = peekSingleton<StoredSettings>("storedSettings");
  if (!stored) return base;
  const merged = peekSingleton<{ base: AppConfig; stored: StoredSettings; config: AppConfig }>("mergedConfig");
  if (merged && merged.base === base && merged.stored === stored) return merged.config;
  const config = withStoredSettings(base, stored);
  setSingleton("mergedConfig", { base, stored, config });
  return config;
}

/** The environment's configuration alone, without stored settings (what /settings-admin compares against). */
export function getBaseConfig(): AppConfig {
  return singleton("config", () => loadConfig());
}

/** Replaces this process's snapshot of the stored settings (undefined: none). */
export function setStoredSettings(stored: StoredSettings | undefined): void {
  setSingleton("storedSettings", stored);
}

export function setConfig(config: AppConfig | undefined): void {
  setSingleton("config", config);
}
