import type { NewsCard as NewsCardData } from "~/services/news.server";
import { useT } from "~/i18n/translate";
import { Icon } from "./Icon";

// Links and thumbnails were checked to be http(s) URLs on the server; text is plain text that React escapes.
export function NewsCard({ post, eager = false }: { post: NewsCardData; eager?: boolean }) {
  const { t } = useT();
  return (
    <li className="news-card">
      <div className="news-card__media">
        {/* Behind the image, so a missing, broken or blocked thumbnail still leaves a tidy card. */}
        <span className="news-card__placeholder" aria-hidden="true">
          <Icon name="radio" size={36} />
        </span>
        {post.thumbnail && (
          <img src={post.thumbnail} alt="" width={640} height={360} loading={eager ? "eager" : "lazy"} decoding="async" referrerPolicy="no-referrer" />
        )}
      </div>
      <div className="news-card__body">
        <h3 className="news-card__title">
          <a href={post.link} target="_blank" rel="noopener noreferrer" className="news-card__link">
            {post.title}
            <span className="visually-hidden">{t("news.opensInNewTab")}</span>
          </a>
        </h3>
        {post.description && <p className="news-card__description">{post.description}</p>}
        {post.pubDate && post.dateLabel && (
          <time className="news-card__date" dateTime={post.pubDate}>
            {post.dateLabel}
          </time>
        )}
      </div>
    </li>
  );
}

export function NewsCardList({ posts, label }: { posts: NewsCardData[]; label: string }) {
  return (
    <ul className="news-grid" aria-label={label}>
      {posts.map((post, index) => (
        <NewsCard key={post.link} post={post} eager={index < 2} />
      ))}
    </ul>
  );
}
