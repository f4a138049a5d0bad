-- AlterTable
ALTER TABLE "ActivityLog" ADD COLUMN     "messageKey" TEXT,
ADD COLUMN     "messageValues" JSONB;


-- Activity lines become messages (key + values), shown in each reader's language.
-- Lines stored as keyed text ("admin.activityEventCreated {...}") move into the columns as they are.
DO $$
DECLARE
  row RECORD;
  parts TEXT[];
BEGIN
  FOR row IN SELECT "id", "summary" FROM "ActivityLog" WHERE "messageKey" IS NULL AND "summary" ~ '^[a-z]+\.[A-Za-z0-9]+( \{.*\})?$' LOOP
    parts := regexp_match(row."summary", '^([a-z]+\.[A-Za-z0-9]+)(?: (\{.*\}))?$');
    BEGIN
      UPDATE "ActivityLog" SET "messageKey" = parts[1], "messageValues" = parts[2]::jsonb WHERE "id" = row."id";
    EXCEPTION WHEN invalid_text_representation THEN
      NULL; -- not JSON after all: the line stays as written
    END;
  END LOOP;
END $$;

-- An event's date and time are worded by each reader's locale.
UPDATE "ActivityLog"
SET "messageValues" = "messageValues" || jsonb_build_object('date', jsonb_build_object('date', "messageValues"->>'date'), 'time', jsonb_build_object('time', "messageValues"->>'time'))
WHERE "messageKey" = 'admin.activityEventCreated' AND jsonb_typeof("messageValues"->'date') = 'string' AND jsonb_typeof("messageValues"->'time') = 'string';

-- Older lines written as English text, where their shape says what they were.
CREATE FUNCTION pg_temp.activity_from_text(action_name TEXT, pattern TEXT, message_key TEXT, names TEXT[], kinds TEXT[]) RETURNS VOID AS $$
DECLARE
  row RECORD;
  parts TEXT[];
  vals JSONB;
BEGIN
  FOR row IN SELECT "id", "summary" FROM "ActivityLog" WHERE "messageKey" IS NULL AND "action" = action_name LOOP
    parts := regexp_match(row."summary", pattern);
    CONTINUE WHEN parts IS NULL;
    vals := '{}'::jsonb;
    FOR i IN 1 .. coalesce(array_length(names, 1), 0) LOOP
      vals := vals || jsonb_build_object(names[i], CASE kinds[i]
        WHEN 'date' THEN jsonb_build_object('date', parts[i])
        WHEN 'time' THEN jsonb_build_object('time', parts[i])
        WHEN 'at' THEN jsonb_build_object('at', replace(parts[i], ' ', 'T'))
        WHEN 'number' THEN to_jsonb(parts[i]::int)
        ELSE to_jsonb(parts[i]) END);
    END LOOP;
    UPDATE "ActivityLog" SET "messageKey" = message_key, "messageValues" = CASE WHEN vals = '{}'::jsonb THEN NULL ELSE vals END WHERE "id" = row."id";
  END LOOP;
END $$ LANGUAGE plpgsql;

SELECT pg_temp.activity_from_text('crew-image.moved', '^Moved crew image (\S+) up$', 'admin.activityCrewImageMovedUp', ARRAY['key'], ARRAY['text']);
SELECT pg_temp.activity_from_text('crew-image.moved', '^Moved crew image (\S+) down$', 'admin.activityCrewImageMovedDown', ARRAY['key'], ARRAY['text']);
SELECT pg_temp.activity_from_text('crew-image.moved', '^Moved crew image (\S+) to #(\d+)$', 'admin.activityCrewImageMovedTo', ARRAY['key', 'position'], ARRAY['text', 'number']);
SELECT pg_temp.activity_from_text('schedule.airing-cancelled', '^Cancelled "(.*)" at (\d{4}-\d\d-\d\d \d\d:\d\d)$', 'admin.activityAiringCancelled', ARRAY['show', 'at'], ARRAY['text', 'at']);
SELECT pg_temp.activity_from_text('schedule.airing-moved', '^Moved "(.*)" from (\d{4}-\d\d-\d\d \d\d:\d\d) to (\d{4}-\d\d-\d\d \d\d:\d\d)$', 'admin.activityAiringMoved', ARRAY['show', 'from', 'to'], ARRAY['text', 'at', 'at']);
SELECT pg_temp.activity_from_text('show.archive', '^Recordings of "(.*)": off$', 'admin.activityShowArchiveOff', ARRAY['show'], ARRAY['text']);
SELECT pg_temp.activity_from_text('show.archive', '^Recordings of "(.*)": kept as drafts$', 'admin.activityShowArchiveDraft', ARRAY['show'], ARRAY['text']);
SELECT pg_temp.activity_from_text('show.archive', '^Recordings of "(.*)": published$', 'admin.activityShowArchivePublish', ARRAY['show'], ARRAY['text']);
SELECT pg_temp.activity_from_text('pin.admin.attacked', '^Admin PIN under attack: (\d+) wrong admin PINs within an hour \(last from (.*)\); for the next (\d+) minutes', 'admin.activityAdminPinAttacked', ARRAY['count', 'ip', 'minutes'], ARRAY['number', 'text', 'number']);
SELECT pg_temp.activity_from_text('event.created', '^Uploaded event "(.*)" \((\d{4}-\d\d-\d\d) (\d\d:\d\d)\)$', 'admin.activityEventCreated', ARRAY['name', 'date', 'time'], ARRAY['text', 'date', 'time']);
SELECT pg_temp.activity_from_text('event.updated', '^Edited event "(.*)" \(new poster\)$', 'admin.activityEventUpdatedPoster', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('event.updated', '^Edited event "(.*)"$', 'admin.activityEventUpdated', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('event.deleted', '^Deleted event "(.*)"$', 'admin.activityEventDeleted', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('show.created', '^Added show "(.*)" with artwork$', 'admin.activityShowCreatedArtwork', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('show.created', '^Added show "(.*)"$', 'admin.activityShowCreated', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('show.deleted', '^Deleted show "(.*)"$', 'admin.activityShowDeleted', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('crew-image.replaced', '^Replaced crew image (\S+)$', 'admin.activityCrewImageReplaced', ARRAY['key'], ARRAY['text']);
SELECT pg_temp.activity_from_text('crew-image.created', '^Added crew image (\S+)$', 'admin.activityCrewImageAdded', ARRAY['key'], ARRAY['text']);
SELECT pg_temp.activity_from_text('crew-image.deleted', '^Deleted crew image (\S+)$', 'admin.activityCrewImageDeleted', ARRAY['key'], ARRAY['text']);
SELECT pg_temp.activity_from_text('crew-member.created', '^Added crew member (.*)$', 'admin.activityCrewMemberAdded', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('crew-member.updated', '^Updated crew member (.*) \(new photo\)$', 'admin.activityCrewMemberUpdatedPhoto', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('crew-member.updated', '^Updated crew member (.*)$', 'admin.activityCrewMemberUpdated', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('crew-member.deleted', '^Deleted crew member (.*)$', 'admin.activityCrewMemberDeleted', ARRAY['name'], ARRAY['text']);
SELECT pg_temp.activity_from_text('embed.created', '^Added a chart player from (\S+)$', 'admin.activityEmbedAdded', ARRAY['host'], ARRAY['text']);
SELECT pg_temp.activity_from_text('embed.deleted', '^Deleted a chart player from (\S+)$', 'admin.activityEmbedDeleted', ARRAY['host'], ARRAY['text']);
SELECT pg_temp.activity_from_text('embed.deleted', '^Deleted a chart player$', 'admin.activityEmbedDeletedUnknown', ARRAY[]::TEXT[], ARRAY[]::TEXT[]);
SELECT pg_temp.activity_from_text('station.email', '^Set the podcast owner email (\S+)$', 'admin.activityStationEmail', ARRAY['email'], ARRAY['text']);
-- Slot lines ("Scheduled ... every Monday at ...") cannot be read back into a rule: they stay as written, shown marked as English.
DROP FUNCTION pg_temp.activity_from_text(TEXT, TEXT, TEXT, TEXT[], TEXT[]);
