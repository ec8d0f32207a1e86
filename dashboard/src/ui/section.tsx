/**
 * A titled section of a page and the states of the list it shows: loading, a failed read, the items the API left out
 * because they record no project, and the empty list. Sections of the project page, the run page and the twin use it.
 */
import type { CSSProperties, ReactNode } from 'react';
import { Empty, ErrorNote, Loading, UnscopedNote } from './common.tsx';

/**
 * `id` is the heading's id (the section is labelled by it); `testId` defaults to it. `panel`: the boxed look of a
 * form or a detail beside a list.
 */
export function Section(props: {
  id: string;
  title: ReactNode;
  more?: ReactNode;
  testId?: string;
  panel?: boolean;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <section
      className={props.panel ? 'panel' : undefined}
      aria-labelledby={props.id}
      data-testid={props.testId ?? props.id}
      style={props.style}
    >
      <h2 id={props.id}>
        {props.title}
        {props.more && <span style={{ fontWeight: 400, fontSize: 12 }}> · {props.more}</span>}
      </h2>
      {props.children}
    </section>
  );
}

/** `unscoped_count` of any list answer that carries one (shown, never hidden). */
export const unscopedOf = (data: unknown) => (data as { unscoped_count?: number } | undefined)?.unscoped_count;

/**
 * What a list query shows before its rows: "Loading <what>…" while the first answer is awaited, the error with
 * `prefix`, the unscoped note, and `empty` once an answer holds no rows. Renders the children only when there are rows.
 */
export function ListState(props: {
  query: { isLoading: boolean; error: unknown; data?: unknown };
  what: string;
  prefix: string;
  count: number;
  empty: ReactNode;
  children: ReactNode;
}) {
  const { query } = props;
  return (
    <>
      {query.isLoading && <Loading what={props.what} />}
      <ErrorNote error={query.error} prefix={props.prefix} />
      <UnscopedNote count={unscopedOf(query.data)} what={props.what} />
      {query.data !== undefined && props.count === 0 && <Empty>{props.empty}</Empty>}
      {props.count > 0 && props.children}
    </>
  );
}
