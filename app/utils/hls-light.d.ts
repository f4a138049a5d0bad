// hls.js's light build (no subtitles, DRM or alternate audio: the rewind window needs none) has no types of its own.
declare module "hls.js/light" {
  export { default } from "hls.js";
}
