import path from "node:path";
import { ConfigError, loadConfig, withStoredSettings } from "~/services/config.server";
import { storedSettingsSchema } from "~/utils/forms/settings";

describe("loadConfig", () => {
  it("has working defaults with no configuration at all", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve("data"));
    expect(config.databaseUrl).toBeNull();
    expect(config.s3).toBeNull();
    expect(config.sessionSecret).toBeNull();
    expect(config.adminPin).toBeNull();
    expect(config.publicPin).toBeNull();
    expect(config.streamUrl).toBeNull();
    expect(config.google).toBeNull();
    expect(config.stationTimezone).toBe("Asia/Jakarta");
    expect(config.stationLanguage).toBe("id");
    expect(config.newsApiUrl).toMatch(/^https:\/\//);
    expect(config.station.name).toBe("SPIN RADIO");
    expect(config.logLevel).toBe("info");
  });

  it("reads every setting", () => {
    const config = loadConfig({
      PORT: "8080",
      DATA_DIR: "/srv/radio",
      DATABASE_URL: "postgresql://radio:pw@db:5432/radio",
      S3_ENDPOINT: "http://minio:9000",
      S3_ACCESS_KEY: "key",
      S3_SECRET_KEY: "secret",
      S3_BUCKET: "radio-media",
      SESSION_SECRET: "a-long-enough-session-secret",
      ADMIN_PIN: "246810",
      PUBLIC_PIN: "ab12z",
      STREAM_URL: "https://stream.example/live?rj-ttl=5",
      NEWS_API_URL: "http://news.local/",
      GOOGLE_CLIENT_ID: "id",
      GOOGLE_CLIENT_SECRET: "secret",
      STATION_TIMEZONE: "Asia/Makassar",
      STATION_LANGUAGE: "EN",
      STATION_NAME: "KHI FM",
      STATION_ACCENT_COLOR: "#22AAFF",
      STATION_EMAIL: "studio@khi.example",
      STATION_SOCIAL_LINKS: "Instagram=https://instagram.com/khi, YouTube=https://youtube.com/@khi",
    });
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe("/srv/radio");
    expect(config.databaseUrl).toBe("postgresql://radio:pw@db:5432/radio");
    expect(config.s3).toEqual({
      endpoint: "http://minio:9000",
      accessKey: "key",
      secretKey: "secret",
      bucket: "radio-media",
      region: "us-east-1",
    });
    expect(config.adminPin).toBe("246810");
    expect(config.publicPin).toBe("ab12z");
    expect(config.newsApiUrl).toBe("http://news.local");
    expect(config.google).toEqual({ clientId: "id", clientSecret: "secret" });
    expect(config.stationTimezone).toBe("Asia/Makassar");
    expect(config.stationLanguage).toBe("en");
    expect(config.station.name).toBe("KHI FM");
    expect(config.station.accentColor).toBe("#22aaff");
    expect(config.station.email).toBe("studio@khi.example");
    expect(config.station.socialLinks).toEqual([
      { label: "Instagram", url: "https://instagram.com/khi" },
      { label: "YouTube", url: "https://youtube.com/@khi" },
    ]);
  });

  it.each([
    [{ PORT: "abc" }, 'PORT must be a whole number between 0 and 65535 (got "abc")'],
    [{ PORT: "70000" }, "PORT must be a whole number"],
    [{ PORT: "-1" }, "PORT must be a whole number"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must start with postgres:// or postgresql://"],
    [{ DATABASE_URL: "not a url" }, "DATABASE_URL must be a URL"],
    [{ S3_ENDPOINT: "http://minio:9000" }, "missing S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET"],
    [{ S3_ENDPOINT: "http://m", S3_ACCESS_KEY: "a", S3_SECRET_KEY: "b", S3_BUCKET: "Bad_Bucket" }, "S3_BUCKET must be a valid bucket name"],
    [{ ADMIN_PIN: "12345" }, "ADMIN_PIN must be exactly 6 digits"],
    [{ ADMIN_PIN: "abcdef" }, "ADMIN_PIN must be exactly 6 digits"],
    [{ PUBLIC_PIN: "123456" }, "PUBLIC_PIN must be exactly 5 characters"],
    [{ SESSION_SECRET: "short" }, "SESSION_SECRET must be at least 16 characters"],
    [{ STREAM_URL: "ftp://x" }, "STREAM_URL must start with http:// or https://"],
    [{ GOOGLE_CLIENT_ID: "only-id" }, "needs both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET"],
    [{ STATION_TIMEZONE: "Mars/Olympus" }, "STATION_TIMEZONE must be an IANA time zone"],
    [{ STATION_LANGUAGE: "fr" }, 'STATION_LANGUAGE must be one of id, en (got "fr")'],
    [{ STATION_ACCENT_COLOR: "red" }, "STATION_ACCENT_COLOR must be a colour"],
    [{ STATION_EMAIL: "<script>@x" }, "STATION_EMAIL must be an email address"],
    [{ STATION_SOCIAL_LINKS: "Instagram" }, "STATION_SOCIAL_LINKS must be"],
    [{ LOG_LEVEL: "loud" }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
  ])("refuses %j with one clear line", (env, message) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain("\n");
  });
});

describe("stored station settings", () => {
  const stored = {
    name: "Radio Kenari",
    timeZone: "Europe/Lisbon",
    language: "en" as const,
    streamUrl: "https://stream.example/live",
    rewindHours: 12,
    socialLinks: [{ label: "Mastodon", url: "https://radio.example/@kenari" }],
  };

  it("take the place of the defaults", () => {
    const config = withStoredSettings(loadConfig({}), stored);
    expect(config.station.name).toBe("Radio Kenari");
    expect(config.station.socialLinks).toEqual(stored.socialLinks);
    expect(config.stationTimezone).toBe("Europe/Lisbon");
    expect(config.stationLanguage).toBe("en");
    expect(config.streamUrl).toBe("https://stream.example/live");
    expect(config.rewindHours).toBe(12);
    // What was never saved keeps its default.
    expect(config.station.accentColor).toBe("#ff3d6e");
    expect(config.historyDays).toBe(365);
  });

  it("give way to a variable the environment sets", () => {
    const base = loadConfig({ STATION_NAME: "Env Radio", STATION_TIMEZONE: "Asia/Makassar", REWIND_HOURS: "0" });
    expect(base.fixedSettings.sort()).toEqual(["name", "rewindHours", "timeZone"]);
    const config = withStoredSettings(base, stored);
    expect(config.station.name).toBe("Env Radio");
    expect(config.stationTimezone).toBe("Asia/Makassar");
    expect(config.rewindHours).toBe(0);
    expect(config.streamUrl).toBe("https://stream.example/live");
  });

  it("are refused when stored out of bounds (a hand-edited row), with the same bounds as the environment", () => {
    expect(storedSettingsSchema.safeParse(stored).success).toBe(true);
    for (const bad of [
      { rewindHours: 169 },
      { historyDays: 0 },
      { timeZone: "Mars/Olympus" },
      { accentColor: "red" },
      { socialLinks: [{ label: "x", url: "http://a.example" }] },
    ]) {
      expect(storedSettingsSchema.safeParse({ ...stored, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
