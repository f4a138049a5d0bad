import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Icon } from "~/components/Icon";
import { ImageSlider } from "~/components/ImageSlider";
import { useLiveData } from "~/hooks/useRealtime";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listCrewImages, listPublicCrewMembers } from "~/models/crew.server";
import { getStationIdentity } from "~/models/station.server";
import { mediaSrcSet, mediaUrlFor } from "~/utils/media";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const { t } = metaTranslator(matches);
  return withSiteMeta(matches, [{ title: data ? t("chart.crewMetaTitle", { station: data.stationName }) : t("chart.crewTitle") }]);
};

export async function loader() {
  const [members, images] = await Promise.all([listPublicCrewMembers(), listCrewImages()]);
  return { members, images, stationName: getStationIdentity().name };
}

export default function CrewSpin() {
  const { members, images, stationName } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  const { t } = useT();
  return (
    <div className="container">
      <header className="page-head">
        <h1 className="page-title">{t("chart.crewTitle")}</h1>
        <p className="muted">{t("chart.crewIntro", { station: stationName })}</p>
      </header>
      <section className="section" aria-labelledby="crew-members-title">
        <h2 id="crew-members-title" className="visually-hidden">
          {t("chart.crewMembers")}
        </h2>
        {members.length === 0 ? (
          <p className="empty-state">
            <Icon name="user" />
            {t("chart.crewEmpty")}
          </p>
        ) : (
          <ul className="crew-list">
            {members.map((member) => (
              <li key={member.id} id={`crew-${member.id}`} className="crew-card">
                <img
                  src={mediaUrlFor(member.image, 640)}
                  srcSet={mediaSrcSet(member.image)}
                  sizes="(min-width: 960px) 360px, 90vw"
                  alt={t("chart.portraitAlt", { name: member.name })}
                  width={member.image.width ?? 600}
                  height={member.image.height ?? 600}
                  loading="lazy"
                  decoding="async"
                />
                <h3 className="crew-card__name">{member.name}</h3>
                <p className="crew-card__job">{member.jobTitle}</p>
                <p className="crew-card__bio">{member.bio}</p>
                {member.details && (
                  <dl className="crew-card__facts">
                    <div>
                      <dt>{t("chart.age")}</dt>
                      <dd>{member.details.age}</dd>
                    </div>
                    <div>
                      <dt>{t("chart.email")}</dt>
                      <dd>
                        <a href={`mailto:${member.details.email}`}>{member.details.email}</a>
                      </dd>
                    </div>
                    <div>
                      <dt>{t("chart.address")}</dt>
                      <dd>{member.details.address}</dd>
                    </div>
                  </dl>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {images.length > 0 && (
        <section className="section" aria-labelledby="crew-gallery-title">
          <div className="section-head">
            <h2 id="crew-gallery-title" className="section-title">
              {t("chart.crewsTitle", { station: stationName })}
            </h2>
          </div>
          <ImageSlider
            images={images}
            pageSize={1}
            label={t("chart.crewGallery", { station: stationName })}
            param="photo"
            sizes="(min-width: 440px) 400px, 92vw"
            altPrefix={t("chart.crewPhoto")}
          />
        </section>
      )}
    </div>
  );
}
