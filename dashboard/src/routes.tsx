/**
 * The dashboard's routes, exactly the spec's list (SPEC part 7). Each page is its own chunk (`lazy`), so the first
 * route loads little and three.js reaches only the 3D pages. `/` lands on `/projects`; anything else is not found.
 */
import { Navigate, type RouteObject } from 'react-router';
import { approvalsListQuery, filtersOf } from './api/approvals.ts';
import { queryClient } from './api/query-client.ts';
import { Layout } from './ui/layout.tsx';
import { RouteError } from './ui/route-error.tsx';

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/projects" replace /> },
      { path: 'projects', lazy: () => import('./pages/projects.tsx') },
      { path: 'projects/:id', lazy: () => import('./pages/project.tsx') },
      { path: 'sessions', lazy: () => import('./pages/sessions.tsx') },
      { path: 'sessions/:id', lazy: () => import('./pages/session.tsx') },
      { path: 'runs', lazy: () => import('./pages/runs.tsx') },
      { path: 'runs/new', lazy: () => import('./pages/run-new.tsx') },
      { path: 'runs/:id', lazy: () => import('./pages/run.tsx') },
      {
        path: 'approvals',
        // The queue's request starts with the navigation, beside the page's chunk, not after it (10,000 items).
        loader: ({ request }) => {
          void queryClient.prefetchQuery(approvalsListQuery(filtersOf(new URL(request.url).searchParams)));
          return null;
        },
        lazy: () => import('./pages/approvals.tsx'),
      },
      { path: 'bom', lazy: () => import('./pages/bom.tsx') },
      { path: 'twin', lazy: () => import('./pages/twin.tsx') },
      { path: 'sim', lazy: () => import('./pages/sim.tsx') },
      { path: 'files', lazy: () => import('./pages/files.tsx') },
      { path: 'knowledge', lazy: () => import('./pages/knowledge.tsx') },
      { path: 'knowledge/sources/:id', lazy: () => import('./pages/knowledge-source.tsx') },
      { path: 'compliance', lazy: () => import('./pages/compliance.tsx') },
      { path: 'settings', lazy: () => import('./pages/settings.tsx') },
      // Not a spec route: where the issuer sends the browser back after sign-in (decision 0120).
      { path: 'auth/callback', lazy: () => import('./auth/callback.tsx') },
      { path: '*', lazy: () => import('./pages/not-found.tsx') },
    ],
  },
];
