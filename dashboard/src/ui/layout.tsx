/**
 * The frame of every page: top bar (name, gateway chip, who is signed in when the gateway has an issuer, theme), side
 * navigation by the spec's routes, the page.
 */
import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { SignInStatus } from '../auth/sign-in-status.tsx';
import { HealthChip } from './health-chip.tsx';

const NAV: ReadonlyArray<{ group: string; links: ReadonlyArray<[string, string]> }> = [
  {
    group: 'Work',
    links: [
      ['/projects', 'Projects'],
      ['/runs', 'Runs'],
      ['/approvals', 'Approvals'],
      ['/sessions', 'Sessions'],
    ],
  },
  {
    group: 'Design data',
    links: [
      ['/twin', 'Twin'],
      ['/bom', 'BOM'],
      ['/files', 'Files'],
      ['/sim', 'Simulation'],
    ],
  },
  {
    group: 'Reference',
    links: [
      ['/knowledge', 'Knowledge'],
      ['/compliance', 'Compliance'],
      ['/settings', 'Settings'],
    ],
  },
];

type Theme = 'system' | 'light' | 'dark';
const THEME_KEY = 'service.theme';

function useTheme(): [Theme, (t: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem(THEME_KEY) as Theme | null) ?? 'system');
  useEffect(() => {
    if (theme === 'system') {
      document.documentElement.removeAttribute('data-theme');
      localStorage.removeItem(THEME_KEY);
    } else {
      document.documentElement.setAttribute('data-theme', theme);
      localStorage.setItem(THEME_KEY, theme);
    }
  }, [theme]);
  return [theme, setTheme];
}

/** The side navigation's state under 900 px (a drawer behind the Menu button); closed again by every navigation. */
function useNavDrawer(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return [open, setOpen];
}

export function Layout() {
  const [theme, setTheme] = useTheme();
  const [navOpen, setNavOpen] = useNavDrawer();
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="nav-toggle"
          aria-controls="main-nav"
          aria-expanded={navOpen}
          onClick={() => setNavOpen(!navOpen)}
        >
          Menu
        </button>
        <Link to="/projects" className="brand">
          Engineering design service
        </Link>
        <span className="spacer" />
        <HealthChip />
        <SignInStatus />
        <label style={{ flexDirection: 'row', alignItems: 'center', gap: 6 }}>
          Theme
          <select value={theme} onChange={(e) => setTheme(e.target.value as Theme)}>
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </header>
      <nav id="main-nav" className={navOpen ? 'sidenav open' : 'sidenav'} aria-label="Main">
        {NAV.map((g) => (
          <div key={g.group}>
            <div className="group">{g.group}</div>
            {g.links.map(([to, label]) => (
              <NavLink key={to} to={to}>
                {label}
              </NavLink>
            ))}
          </div>
        ))}
      </nav>
      <main className="page" id="main">
        <Outlet />
      </main>
    </div>
  );
}
