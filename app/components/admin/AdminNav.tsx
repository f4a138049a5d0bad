import { Form, Link, NavLink } from "@remix-run/react";
import { useState } from "react";
import { adminLinks } from "../navigation";
import { PinDialog } from "../PinDialog";

/**
 * The in-page admin navigation: the five admin screens, the public PIN dialog
 * back to the public site, and "Leave admin", which ends the session outright.
 */
export function AdminNav() {
  const [pinOpen, setPinOpen] = useState(false);
  return (
    <nav className="admin-nav" aria-label="Admin">
      <ul className="admin-nav__links">
        {adminLinks.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} className="admin-nav__link" prefetch="intent">
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
      <div className="admin-nav__actions">
        <Link
          to="/pin?kind=public"
          className="button button--ghost admin-nav__action"
          onClick={(event) => {
            event.preventDefault();
            setPinOpen(true);
          }}
        >
          Public site (PIN)
        </Link>
        <Form method="post" action="/pin">
          <input type="hidden" name="intent" value="leave" />
          <button type="submit" className="button button--ghost admin-nav__action">
            Leave admin
          </button>
        </Form>
      </div>
      <PinDialog kind="public" open={pinOpen} onClose={() => setPinOpen(false)} />
    </nav>
  );
}
