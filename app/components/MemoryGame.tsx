import { useEffect, useRef, useState } from "react";
import { Message } from "~/i18n/Message";
import { useT } from "~/i18n/translate";
import { mediaUrlFor, type MediaFile } from "~/utils/media";
import { Icon } from "./Icon";

export interface GameImage {
  id: string;
  image: MediaFile;
}

interface Card {
  slot: number;
  pairId: string;
  image: MediaFile;
  /** The photo's number, for its label ("Crew photo 3"): a pair shares it. */
  number: number;
}

const FLIP_BACK_MS = 900;
const BEST_KEY = "crew-match:best-moves";

// A small seeded PRNG (mulberry32): the server and the browser deal the same deck, so hydration matches.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two of each image, shuffled (Fisher-Yates) by `seed`. */
export function dealDeck(images: GameImage[], seed: number): Card[] {
  const next = random(seed);
  const cards = images.flatMap((item, index) => [0, 1].map(() => ({ pairId: item.id, image: item.image, number: index + 1 })));
  for (let i = cards.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards.map((card, slot) => ({ ...card, slot }));
}

/** Crew Match: turn two cards at a time and find every pair of crew photos. */
export function MemoryGame({ images, seed: initialSeed }: { images: GameImage[]; seed: number }) {
  const [seed, setSeed] = useState(initialSeed);
  const [deck, setDeck] = useState(() => dealDeck(images, initialSeed));
  const [faceUp, setFaceUp] = useState<number[]>([]);
  const [matched, setMatched] = useState<Set<string>>(new Set());
  const [moves, setMoves] = useState(0);
  const [best, setBest] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const flipBack = useRef<ReturnType<typeof setTimeout>>();
  const { t } = useT();
  const label = (card: Card) => t("chart.cardPhoto", { number: card.number });
  const won = matched.size === images.length && images.length > 0;

  useEffect(() => {
    const saved = Number(localStorage.getItem(BEST_KEY));
    if (saved > 0) setBest(saved);
    return () => clearTimeout(flipBack.current);
  }, []);

  useEffect(() => {
    if (!won) return;
    setAnnouncement(t("chart.allPairsFound", { moves }));
    if (best === null || moves < best) {
      setBest(moves);
      localStorage.setItem(BEST_KEY, String(moves));
    }
    // Runs again once setBest lands, which changes nothing: the best is then these moves.
  }, [won, moves, best, t]);

  const turn = (card: Card) => {
    if (won || matched.has(card.pairId) || faceUp.includes(card.slot) || faceUp.length === 2) return;
    const open = [...faceUp, card.slot];
    setFaceUp(open);
    if (open.length < 2) return;
    setMoves((count) => count + 1);
    const [first, second] = open.map((slot) => deck[slot]);
    if (first.pairId === second.pairId) {
      setMatched((found) => new Set(found).add(first.pairId));
      setFaceUp([]);
      setAnnouncement(t("chart.match", { card: label(first) }));
    } else {
      setAnnouncement(t("chart.notAPair"));
      flipBack.current = setTimeout(() => setFaceUp([]), FLIP_BACK_MS);
    }
  };

  const restart = () => {
    clearTimeout(flipBack.current);
    const nextSeed = Math.floor(Math.random() * 2 ** 31);
    setSeed(nextSeed);
    setDeck(dealDeck(images, nextSeed));
    setFaceUp([]);
    setMatched(new Set());
    setMoves(0);
    setAnnouncement(t("chart.newGameStarted"));
  };

  return (
    <div data-seed={seed}>
      <div className="game-status">
        <p>
          <Message id="chart.moves" values={{ moves }} components={{ 0: <strong data-testid="game-moves" /> }} />
        </p>
        <p>
          <Message id="chart.pairs" values={{ found: matched.size, total: images.length }} components={{ 0: <strong /> }} />
        </p>
        {best !== null && <p>{t("chart.best", { moves: best })}</p>}
        <button type="button" className="button button--ghost" onClick={restart}>
          {t("chart.newGame")}
        </button>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {won && (
        <p className="empty-state" role="status">
          <Icon name="heart" />
          {t("chart.won", { moves })}
        </p>
      )}
      <ul className="memory-board" aria-label={t("chart.cards")}>
        {deck.map((card) => {
          const isMatched = matched.has(card.pairId);
          const shown = isMatched || faceUp.includes(card.slot);
          return (
            <li key={card.slot}>
              <button
                type="button"
                className="memory-card"
                data-matched={isMatched || undefined}
                data-pair={card.pairId}
                aria-label={
                  shown ? (isMatched ? t("chart.cardMatched", { card: label(card) }) : label(card)) : t("chart.cardFaceDown", { number: card.slot + 1 })
                }
                aria-disabled={isMatched || undefined}
                onClick={() => turn(card)}
              >
                {shown ? (
                  <img src={mediaUrlFor(card.image, 320)} alt="" width={160} height={160} />
                ) : (
                  <span className="memory-card__back" aria-hidden="true">
                    <Icon name="radio" size={32} />
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
