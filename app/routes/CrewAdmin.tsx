import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminList, AdminListItem, EditLink } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { EditForm, keepCurrentLabel, useEditing } from "~/components/admin/EditForm";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { useLiveData } from "~/hooks/useRealtime";
import type { MessageKey } from "~/i18n/keys";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { createCrewMember, deleteCrewMember, listCrewMembers, updateCrewMember, validateCrewMember } from "~/models/crew.server";
import { requireStaff } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { CREW_MEMBER_LABELS, crewMemberFields } from "~/utils/forms/crew-member";
import { fieldConstraints } from "~/utils/forms/form";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("chart.crewAdminMetaTitle") }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, "content");
  const members = await listCrewMembers();
  const editId = new URL(request.url).searchParams.get("edit");
  return { members, editing: members.find((member) => member.id === editId) ?? null };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "content");
  const { t } = await requestTranslator(request);
  return answerAdminForm(request, {
    "save-member": async ({ fields, files }) => {
      const editing = Boolean(fields.id);
      const check = validateCrewMember({ ...fields, image: files.image }, editing);
      if (!check.ok) {
        // The form's checks answer with message keys; a field's own label and limit fill them in.
        const errors = Object.fromEntries(
          Object.entries(check.errors).map(([field, key]) => {
            const name = field as keyof typeof CREW_MEMBER_LABELS;
            return [field, t(key as MessageKey, { field: t(CREW_MEMBER_LABELS[name]), max: limits[name as keyof typeof limits]?.maxLength })];
          }),
        );
        return { ok: false, message: t(check.message as MessageKey), errors };
      }
      if (editing) {
        const member = await updateCrewMember(fields.id, check.value, files.image ?? null, actor, t);
        return { ok: true, message: t("chart.memberSaved", { name: member.name }) };
      }
      const member = await createCrewMember(check.value, files.image, actor);
      return { ok: true, message: t("chart.memberAdded", { name: member.name }) };
    },
    "delete-member": pageScoped(async ({ fields }) => {
      await deleteCrewMember(fields.id ?? "", actor, t);
      return { ok: true, message: fields.name ? t("chart.memberDeleted", { name: fields.name }) : t("chart.someoneDeleted") };
    }),
  });
}

const limits = fieldConstraints(crewMemberFields);

export default function CrewAdmin() {
  const { members, editing: editingFromUrl } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  const editing = useEditing("member-form", editingFromUrl);
  const { t } = useT();

  return (
    <AdminPage title={t("chart.crewAdminTitle")} intro={t("chart.crewAdminIntro")}>
      <div className="admin-columns">
        <AdminSection id="member-form-title" title={editing ? t("chart.editMember", { name: editing.name }) : t("chart.addAMember")}>
          <EditForm
            formId="member-form"
            intent="save-member"
            editing={editing}
            addLabel={t("chart.addAMember")}
            addButton={t("chart.addMember")}
            successTo="/CrewAdmin"
          >
            <ImagePicker
              name="image"
              label={keepCurrentLabel(t("chart.photo"), Boolean(editing), { t })}
              current={editing?.image}
              currentAlt={editing ? t("chart.currentPhotoAlt", { name: editing.name }) : ""}
              aspect="1 / 1"
            />
            <Field name="name" label={t("chart.name")} defaultValue={editing?.name} {...limits.name} autoComplete="off" />
            <div className="admin-form__row">
              <Field name="age" label={t("chart.age")} type="number" inputMode="numeric" defaultValue={editing?.age} {...limits.age} />
              <Field name="jobTitle" label={t("chart.jobTitle")} defaultValue={editing?.jobTitle} {...limits.jobTitle} />
            </div>
            <Field name="email" label={t("chart.email")} type="email" defaultValue={editing?.email} {...limits.email} autoComplete="off" />
            <Field name="address" label={t("chart.address")} defaultValue={editing?.address} {...limits.address} />
            <Field name="bio" label={t("chart.bio")} multiline rows={4} defaultValue={editing?.bio} {...limits.bio} />
            <div className="field">
              <label className="check-chip">
                <input type="checkbox" name="detailsPublic" defaultChecked={editing?.detailsPublic ?? false} aria-describedby="crew-public-hint" />{" "}
                {t("chart.detailsPublic")}
              </label>
              <p id="crew-public-hint" className="field__hint">
                {t("chart.detailsPublicHint")}
              </p>
            </div>
          </EditForm>
        </AdminSection>

        <AdminSection id="member-list-title" title={t("chart.theCrew")} description={t("chart.memberCount", { count: members.length })}>
          <AdminList items={members} emptyIcon="user" empty={t("chart.crewAdminEmpty")}>
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
                      confirm={t("chart.deleteMemberConfirm", { name: member.name })}
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
