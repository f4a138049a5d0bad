import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminForm, FormStatus, SubmitButton, type AdminResult } from "~/components/admin/AdminForm";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { Icon } from "~/components/Icon";
import { useLiveData } from "~/hooks/useRealtime";
import { createCrewMember, deleteCrewMember, listCrewMembers, updateCrewMember, validateCrewMember } from "~/models/crew.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { mediaUrlFor } from "~/utils/media";

export const meta: MetaFunction = () => [{ title: "Crew · Admin" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const members = await listCrewMembers();
  const editId = new URL(request.url).searchParams.get("edit");
  return { members, editing: members.find((member) => member.id === editId) ?? null };
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireAdmin(request);
  const actor = { adminSessionId: session.id };
  return answerAdminForm(request, {
    "save-member": async ({ fields, files }) => {
      const editing = Boolean(fields.id);
      const check = validateCrewMember(fields, { hasImage: Boolean(files.image), editing });
      if (!check.ok) return { ok: false, message: "Please correct the marked fields.", errors: check.errors };
      if (editing) {
        const member = await updateCrewMember(fields.id, check.value, files.image ?? null, actor);
        return { ok: true, message: `${member.name} saved.` };
      }
      const member = await createCrewMember(check.value, files.image, actor);
      return { ok: true, message: `${member.name} added to the crew.` };
    },
    "delete-member": pageScoped(async ({ fields }) => {
      await deleteCrewMember(fields.id ?? "", actor);
      return { ok: true, message: `${fields.name ?? "The crew member"} deleted.` };
    }),
  });
}

export default function CrewAdmin() {
  const { members, editing: editingFromUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<AdminResult | undefined>();
  useLiveData("images:changed");
  // Edit mode is left after a successful submit, even before the URL changes (no JavaScript).
  const editing = actionData?.formId === "member-form" && actionData.ok ? null : editingFromUrl;

  return (
    <AdminPage title="Crew" intro="The people on the public CREW page. Every field is required; when editing, leave the photo empty to keep the current one.">
      <div className="admin-columns">
        <AdminSection id="member-form-title" title={editing ? `Edit ${editing.name}` : "Add a crew member"}>
          <AdminForm
            formId="member-form"
            intent="save-member"
            hidden={editing ? { id: editing.id } : undefined}
            successTo="/CrewAdmin"
            className="admin-form"
            aria-label={editing ? `Edit ${editing.name}` : "Add a crew member"}
          >
            <div key={editing?.id ?? "new"} className="admin-form__fields">
              <ImagePicker
                name="image"
                label={editing ? "Photo (leave empty to keep the current one)" : "Photo"}
                current={editing?.image}
                currentAlt={editing ? `Current photo of ${editing.name}` : ""}
                aspect="1 / 1"
              />
              <Field name="name" label="Name" defaultValue={editing?.name} required maxLength={80} autoComplete="off" />
              <div className="admin-form__row">
                <Field name="age" label="Age" type="number" inputMode="numeric" min={1} max={120} defaultValue={editing?.age} required />
                <Field name="jobTitle" label="Job title" defaultValue={editing?.jobTitle} required maxLength={80} />
              </div>
              <Field name="email" label="Email" type="email" defaultValue={editing?.email} required maxLength={254} autoComplete="off" />
              <Field name="address" label="Address" defaultValue={editing?.address} required maxLength={200} />
              <Field name="bio" label="Bio" multiline rows={4} defaultValue={editing?.bio} required maxLength={1000} />
            </div>
            <FormStatus />
            <div className="admin-form__actions">
              <SubmitButton pendingLabel="Saving…">{editing ? "Save changes" : "Add crew member"}</SubmitButton>
              {editing && (
                <Link to="/CrewAdmin" className="button button--ghost">
                  Cancel editing
                </Link>
              )}
            </div>
          </AdminForm>
        </AdminSection>

        <AdminSection id="member-list-title" title="The crew" description={`${members.length} member${members.length === 1 ? "" : "s"}.`}>
          {members.length === 0 ? (
            <p className="empty-state">
              <Icon name="user" />
              No crew members yet. Add the first one with the form.
            </p>
          ) : (
            <ul className="admin-list">
              {members.map((member) => (
                <li key={member.id} className="admin-list__item">
                  <img className="admin-list__thumb" src={mediaUrlFor(member.image, 320)} alt={member.name} width={64} height={64} loading="lazy" />
                  <div className="admin-list__text">
                    <p className="admin-list__title">{member.name}</p>
                    <p className="caption">
                      {member.jobTitle} · {member.age} · {member.email}
                    </p>
                  </div>
                  <div className="admin-list__actions">
                    <Link to={`?edit=${member.id}`} className="button button--ghost">
                      Edit<span className="visually-hidden"> {member.name}</span>
                    </Link>
                    <AdminForm
                      formId={`delete-${member.id}`}
                      intent="delete-member"
                      hidden={{ id: member.id, name: member.name }}
                      confirm={`Delete ${member.name} from the crew?`}
                    >
                      <SubmitButton pendingLabel="Deleting…" variant="danger">
                        Delete<span className="visually-hidden"> {member.name}</span>
                      </SubmitButton>
                    </AdminForm>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </AdminSection>
      </div>
    </AdminPage>
  );
}
