// Station wall-clock times and DST (RFC 5545 3.3.5): the rules the schedule expands airings with.
import { dayKeyAt, instantOfStationWall, isTimeZone, parseWallKey, wallKey, wallKeyAt } from "./schedule-time";

const wall = (key: string) => parseWallKey(key)!;
const at = (key: string, zone: string) => instantOfStationWall(wall(key), zone).toISOString();

describe("wall keys", () => {
  it("round-trips a wall time, seconds ignored", () => {
    expect(parseWallKey("2026-11-26T20:05")).toEqual({ year: 2026, month: 11, day: 26, hour: 20, minute: 5, second: 0 });
    expect(parseWallKey(" 2026-11-26T20:05:59 ")).toEqual({ year: 2026, month: 11, day: 26, hour: 20, minute: 5, second: 0 });
    expect(wallKey(wall("2026-01-02T03:04"))).toBe("2026-01-02T03:04");
  });

  it("refuses dates and times that do not exist", () => {
    for (const value of [
      "2026-02-29T10:00",
      "2026-04-31T10:00",
      "2026-13-01T10:00",
      "2026-11-26T24:00",
      "2026-11-26T10:60",
      "1999-12-31T10:00",
      "2201-01-01T00:00",
      "2026-11-26 10:00",
      "",
      "2026-11-26T1:00",
    ]) {
      expect(parseWallKey(value), value).toBeNull();
    }
    expect(parseWallKey("2028-02-29T10:00")).not.toBeNull();
  });
});

describe("a station clock's wall time as an instant", () => {
  it("has no DST in Jakarta: 20:00 is always 13:00 UTC", () => {
    expect(at("2026-03-29T20:00", "Asia/Jakarta")).toBe("2026-03-29T13:00:00.000Z");
    expect(at("2026-10-25T20:00", "Asia/Jakarta")).toBe("2026-10-25T13:00:00.000Z");
  });

  it("keeps a weekly 20:00 show at 20:00 local on both sides of a DST change", () => {
    expect(at("2026-03-22T20:00", "Europe/Berlin")).toBe("2026-03-22T19:00:00.000Z");
    expect(at("2026-03-29T20:00", "Europe/Berlin")).toBe("2026-03-29T18:00:00.000Z");
    expect(at("2026-10-25T20:00", "Europe/Berlin")).toBe("2026-10-25T19:00:00.000Z");
  });

  it("reads a start that does not exist (02:30 on the spring-forward night) with the offset before the jump: 03:30 local", () => {
    const instant = instantOfStationWall(wall("2026-03-29T02:30"), "Europe/Berlin");
    expect(instant.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(wallKeyAt(instant, "Europe/Berlin")).toBe("2026-03-29T03:30");
    expect(at("2026-03-08T02:30", "America/New_York")).toBe("2026-03-08T07:30:00.000Z");
  });

  it("takes the first of a time that occurs twice (the autumn night)", () => {
    expect(at("2026-10-25T02:30", "Europe/Berlin")).toBe("2026-10-25T00:30:00.000Z");
    expect(at("2026-11-01T01:30", "America/New_York")).toBe("2026-11-01T05:30:00.000Z");
  });

  it("handles zones with half- and quarter-hour offsets", () => {
    expect(at("2026-06-01T12:00", "Asia/Kolkata")).toBe("2026-06-01T06:30:00.000Z");
    expect(at("2026-06-01T12:00", "Asia/Kathmandu")).toBe("2026-06-01T06:15:00.000Z");
    // Lord Howe Island moves its clocks by half an hour: 01:45 occurs twice on its autumn night.
    expect(at("2026-04-05T01:45", "Australia/Lord_Howe")).toBe("2026-04-04T14:45:00.000Z");
    expect(at("2026-04-05T02:30", "Australia/Lord_Howe")).toBe("2026-04-04T16:00:00.000Z");
  });

  it("names the station day of an instant", () => {
    expect(dayKeyAt(new Date("2026-11-26T17:30:00Z"), "Asia/Jakarta")).toBe("2026-11-27");
    expect(dayKeyAt(new Date("2026-11-26T16:59:59Z"), "Asia/Jakarta")).toBe("2026-11-26");
  });
});

describe("time zone names", () => {
  it("accepts IANA names the runtime knows and refuses anything else", () => {
    for (const zone of ["Asia/Jakarta", "UTC", "America/Argentina/Buenos_Aires", "Etc/GMT+7"]) expect(isTimeZone(zone), zone).toBe(true);
    for (const zone of ["Mars/Olympus_Mons", "", "../etc/passwd", "Asia/Jakarta\n", "A".repeat(65), "<script>"]) expect(isTimeZone(zone), zone).toBe(false);
  });
});
