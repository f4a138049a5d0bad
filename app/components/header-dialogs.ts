// The header's parts most visits never show, loaded together (SiteHeader): the drawers and the PIN
// dialog the first time one opens, the admin strip on a staff member's first page.
export { MenuDrawer } from "./MenuDrawer";
export { PinDialog } from "./PinDialog";
export { ProfileDrawer } from "./ProfileDrawer";
export { AdminStrip } from "./AdminStrip";
