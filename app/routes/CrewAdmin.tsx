import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminList, AdminListItem, EditLink } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { EditForm, keepCurrentLabel, useEditing } from "~/components/admin/EditForm";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { useLiveData } from "~/hooks/useRealtime";
import { createCrewMember, deleteCrewMember, listCrewMembers, updateCrewMember, validateCrewMember } from "~/models/crew.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { crewMemberFields } from "~/utils/forms/crew-member";
import { fieldConstraints } from "~/utils/forms/form";

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
      const check = validateCrewMember({ ...fields, image: files.image }, editing);
      if (!check.ok) return check;
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

const limits = fieldConstraints(crewMemberFields);

export default function CrewAdmin() {
  const { members, editing: editingFromUrl } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  const editing = useEditing("member-form", editingFromUrl);

  return (
    <AdminPage title="Crew" intro="The people on the public CREW page. Every field is required; when editing, leave the photo empty to keep the current one.">
      <div className="admin-columns">
        <AdminSection id="member-form-title" title={editing ? `Edit ${editing.name}` : "Add a crew member"}>
          <EditForm formId="member-form" intent="save-member" editing={editing} addLabel="Add a crew member" addButton="Add crew member" successTo="/CrewAdmin">
            <ImagePicker
              name="image"
              label={keepCurrentLabel("Photo", Boolean(editing))}
              current={editing?.image}
              currentAlt={editing ? `Current photo of ${editing.name}` : ""}
              aspect="1 / 1"
            />
            <Field name="name" label="Name" defaultValue={editing?.name} {...limits.name} autoComplete="off" />
            <div className="admin-form__row">
              <Field name="age" label="Age" type="number" inputMode="numeric" defaultValue={editing?.age} {...limits.age} />
              <Field name="jobTitle" label="Job title" defaultValue={editing?.jobTitle} {...limits.jobTitle} />
            </div>
            <Field name="email" label="Email" type="email" defaultValue={editing?.email} {...limits.email} autoComplete="off" />
            <Field name="address" label="Address" defaultValue={editing?.address} {...limits.address} />
            <Field name="bio" label="Bio" multiline rows={4} defaultValue={editing?.bio} {...limits.bio} />
          </EditForm>
        </AdminSection>

        <AdminSection id="member-list-title" title="The crew" description={`${members.length} member${members.length === 1 ? "" : "s"}.`}>
          <AdminList items={members} emptyIcon="user" empty="No crew members yet. Add the first one with the form.">
            {(member) => (
              <AdminListItem
                key={member.id}
                title={member.name}
                thumb={{ image: member.image, alt: member.name }}
                actions={
                  <>
                    <EditLink to={`?edit=${member.id}`} readAlso={` ${member.name}`} />
                    <DeleteForm
                      formId={`delete-${member.id}`}
                      intent="delete-member"
                      hidden={{ id: member.id, name: member.name }}
                      confirm={`Delete ${member.name} from the crew?`}
                      readAlso={` ${member.name}`}
                    />
                  </>
                }
              >
                <p className="caption">
                  {member.jobTitle} · {member.age} · {member.email}
                </p>
              </AdminListItem>
            )}
          </AdminList>
        </AdminSection>
      </div>
    </AdminPage>
  );
}
