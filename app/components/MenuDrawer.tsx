import { NavLink } from "@remix-run/react";
import { Drawer } from "./Drawer";
import { publicLinks } from "./navigation";

export function MenuDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Drawer id="menu-drawer" side="left" title="Menu" open={open} onClose={onClose}>
      <nav aria-label="Menu">
        <ul className="drawer__links">
          {publicLinks.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className="drawer__link" onClick={onClose} prefetch="intent">
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </Drawer>
  );
}
