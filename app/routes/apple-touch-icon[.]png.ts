import { appIconResponse } from "./icons.$name";

// iOS asks for /apple-touch-icon.png by itself (and root.tsx links it): opaque, 180 px.
export const loader = () => appIconResponse("apple-touch-icon.png");
