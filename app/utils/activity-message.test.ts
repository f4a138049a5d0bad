import { serverI18n } from "~/i18n/catalogs.server";
import { translator } from "~/i18n/translate";
import { activityMessage, activityText } from "./activity-message";

const en = translator(serverI18n("en"));
const id = translator(serverI18n("id"));

describe("activity messages", () => {
  it("word dates, times and wall times in each reader's locale, never as ISO", () => {
    const created = activityMessage("admin.activityEventCreated", { name: "Konser", date: { date: "2026-12-27" }, time: { time: "19:30" } });
    expect(activityText(created, en)).toBe('Uploaded event "Konser" (27 Dec 2026 19:30)');
    expect(activityText(created, id)).toBe('Mengunggah event "Konser" (27 Des 2026 19.30)');
    const moved = activityMessage("admin.activityAiringMoved", { show: "Tech Corner", from: { at: "2026-11-27T09:00" }, to: { at: "2026-11-28T10:00" } });
    expect(activityText(moved, id)).toBe('Memindahkan "Tech Corner" dari 27 Nov 2026 09.00 ke 28 Nov 2026 10.00');
  });

  it("word a schedule slot as the schedule does", () => {
    const slot = { startDate: "2026-11-30", startTime: "09:00", durationMinutes: 60, rrule: "FREQ=WEEKLY;BYDAY=MO,WE", endDate: null };
    const message = activityMessage("admin.activitySlotCreated", { show: "Pagi", slot: { slot } });
    expect(activityText(message, en)).toBe('Scheduled "Pagi" every Monday, Wednesday at 09:00 for 60 min, from 30 Nov 2026');
    expect(activityText(message, id)).toMatch(/^Menjadwalkan "Pagi" setiap Senin, Rabu pukul 09.00 selama 60 menit, mulai 30 Nov 2026$/);
  });

  it("word the PIN-attack line with its figures", () => {
    const message = activityMessage("admin.activityAdminPinAttacked", { count: 50, ip: "203.0.113.9", minutes: 42 });
    expect(activityText(message, en)).toMatch(
      /^Admin PIN under attack: 50 wrong admin PINs within an hour \(last from 203\.0\.113\.9\); for the next 42 minutes/,
    );
    expect(activityText(message, id)).toMatch(/^PIN admin sedang diserang: 50 PIN admin salah/);
  });

  it("keep a malformed typed value as it was stored", () => {
    expect(activityText(activityMessage("admin.activityEventCreated", { name: "X", date: { date: "soon" }, time: { time: "later" } }), en)).toBe(
      'Uploaded event "X" (soon later)',
    );
  });
});
