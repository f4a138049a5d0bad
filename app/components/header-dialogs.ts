// The header's drawers and PIN dialog, loaded together the first time one opens (SiteHeader).
export { MenuDrawer } from "./MenuDrawer";
export { PinDialog } from "./PinDialog";
export { ProfileDrawer } from "./ProfileDrawer";
