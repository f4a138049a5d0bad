import { Link, useLoaderData } from "@remix-run/react";
import { Icon } from "../root";

// /listen's content in outline, from an in-memory loader: a hero image, eight podcast cards,
// six news items and six crew members (about 220 elements and 44 links with the layout).
export async function loader() {
  return {
    title: "On air now",
    heroAlt: "On air",
    sections: { podcasts: "Podcasts", news: "News", crew: "Crew", play: "Play" },
    episodes: Array.from({ length: 8 }, (_, i) => ({
      id: i + 1,
      title: `Episode ${i + 1} of the morning show`,
      host: "Host name",
      image: `/media/images/episode-${i}-w320.webp`,
    })),
    news: Array.from({ length: 6 }, (_, i) => ({
      id: `news-${i}`,
      title: `News headline number ${i} about something`,
      summary: "A short summary of the article that goes on for a while. ".repeat(2),
    })),
    crew: Array.from({ length: 6 }, (_, i) => ({ id: i, name: `Crew member ${i}`, role: "Presenter", image: `/media/images/crew-${i}-w160.webp` })),
  };
}

export default function Index() {
  const page = useLoaderData<typeof loader>();
  return (
    <main id="main">
      <div className="container">
        <div className="hero">
          <img src="/hero.webp" srcSet="/hero-320.webp 320w, /hero-640.webp 640w" sizes="100vw" alt={page.heroAlt} width={1920} height={1080} />
        </div>
        <h1>{page.title}</h1>
        <section>
          <h2>{page.sections.podcasts}</h2>
          <ul>
            {page.episodes.map((episode) => (
              <li key={episode.id}>
                <div className="card">
                  <Link to={`/play/${episode.id}`}>
                    <img src={episode.image} alt="" width={160} height={160} />
                  </Link>
                  <h3>
                    <Link to={`/play/${episode.id}`}>{episode.title}</Link>
                  </h3>
                  <p>{episode.host}</p>
                  <button type="button">
                    <Icon name="play" />
                    <span>{page.sections.play}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>
        <section>
          <h2>{page.sections.news}</h2>
          <ul>
            {page.news.map((item) => (
              <li key={item.id}>
                <Link to={`/news/${item.id}`}>
                  <h3>{item.title}</h3>
                </Link>
                <p>{item.summary}</p>
              </li>
            ))}
          </ul>
        </section>
        <section>
          <h2>{page.sections.crew}</h2>
          <ul>
            {page.crew.map((member) => (
              <li key={member.id}>
                <Link to={`/crew#${member.id}`}>
                  <img src={member.image} alt="" width={80} height={80} />
                  <span>{member.name}</span>
                </Link>
                <p>{member.role}</p>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </main>
  );
}
