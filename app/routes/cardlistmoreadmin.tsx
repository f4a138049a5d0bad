import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminForm, FormStatus, SubmitButton, useFieldError, useSubmittedValue } from "~/components/admin/AdminForm";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { CardImageTiles } from "~/components/admin/CardImageTiles";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { Icon } from "~/components/Icon";
import { useLiveData } from "~/hooks/useRealtime";
import { cardImageHandlers, listCardImages } from "~/models/card-images.server";
import { listReusableAudio } from "~/models/podcasts.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm } from "~/services/admin-forms.server";
import { formatDuration } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Podcast cards · Admin" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [cards, audio] = await Promise.all([listCardImages(10), listReusableAudio()]);
  return { cards, audio };
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireAdmin(request);
  return answerAdminForm(request, cardImageHandlers({ adminSessionId: session.id }));
}

function AudioChoice({ audio }: { audio: { id: number; title: string; durationSeconds: number }[] }) {
  const error = useFieldError("audioFrom");
  const submitted = useSubmittedValue("audioFrom");
  return (
    <div className="admin-field">
      <label htmlFor="card-audio" className="admin-label">
        Audio it plays
      </label>
      <select id="card-audio" name="audioFrom" className="admin-input" defaultValue={submitted} required aria-invalid={error ? true : undefined} aria-describedby={error ? "card-audio-error" : undefined}>
        {audio.map((episode) => (
          <option key={episode.id} value={episode.id}>
            {`${episode.title} (${formatDuration(episode.durationSeconds)})`}
          </option>
        ))}
      </select>
      {error && (
        <p id="card-audio-error" className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}

export default function CardListMoreAdmin() {
  const { cards, audio } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  return (
    <AdminPage title="Podcast cards" intro="The ten cards of /cardlistmore, newest first. Each card is a podcast episode and its image is the episode's cover.">
      <AdminSection
        id="cards-title"
        title="The ten newest cards"
        description="Deleting a card's image does not leave the card blank: it falls back to the station's own artwork until you upload a new image."
      >
        {cards.length === 0 ? (
          <p className="empty-state">
            <Icon name="radio" />
            No podcast cards yet.
          </p>
        ) : (
          <CardImageTiles cards={cards} withDelete />
        )}
      </AdminSection>
      <AdminSection
        id="card-add-title"
        title="Add a new card"
        description="A new card is a new episode, published now as the newest card. Until episodes can be uploaded with their own audio, a new card plays the audio of an existing episode that you choose."
      >
        {audio.length === 0 ? (
          <p className="admin-note">A card needs audio to play, and there is no episode audio yet.</p>
        ) : (
          <AdminForm formId="card-add" intent="add-card" className="admin-form" aria-label="Add a new card">
            <div className="admin-columns admin-columns--even">
              <ImagePicker name="image" label="Image" aspect="1 / 1" />
              <div className="admin-form__fields">
                <Field name="title" label="Title" required maxLength={120} autoComplete="off" />
                <AudioChoice audio={audio} />
              </div>
            </div>
            <FormStatus />
            <div className="admin-form__actions">
              <SubmitButton pendingLabel="Adding…">Add card</SubmitButton>
            </div>
          </AdminForm>
        )}
      </AdminSection>
    </AdminPage>
  );
}
