import iconsUrl from "~/assets/icons.svg";

// One SVG sprite for every icon (app/assets/icons.svg): a hashed file the browser caches for good,
// drawn in currentColor. The paths are not repeated in every page's HTML and JavaScript.
export type IconName =
  | "menu"
  | "close"
  | "user"
  | "chevronDown"
  | "chevronLeft"
  | "chevronRight"
  | "play"
  | "pause"
  | "volume"
  | "mute"
  | "radio"
  | "calendar"
  | "heart"
  | "heartFilled"
  | "share"
  | "lock"
  | "download"
  | "bell"
  | "leave";

export function Icon({ name, size = 24 }: { name: IconName; size?: number }) {
  return (
    <svg width={size} height={size} aria-hidden="true" focusable="false">
      <use href={`${iconsUrl}#${name}`} />
    </svg>
  );
}
