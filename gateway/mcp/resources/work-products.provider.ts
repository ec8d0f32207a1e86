import path from 'node:path';
import { call, type Caller } from '../../../brokers/actions.ts';
import { createBlobStore } from '../../../brokers/blobs.ts';
import type { Queryable } from '../../../brokers/db/index.ts';
import { ProjectsActions } from '../../../contracts/actions/projects.actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import type { McpResource } from '../../../contracts/mcp-features.ts';
import type { Item } from '../../../contracts/twin.ts';
import type { CandidateSources } from '../candidates.ts';
import { rpcError } from '../errors.ts';
import { fileContents, MAX_RESOURCE_FILE_BYTES } from './file-contents.ts';
import { jsonContents, notFound, readFailure, type ResourceProvider } from './provider.ts';
import { Uris } from './uris.ts';

/** The project a URI names, or -32002 for an unknown one. */
export async function projectOf(bus: Caller, uri: string, projectId: string) {
  try {
    return await call(bus, ProjectsActions.get, { id: projectId });
  } catch (err) {
    throw readFailure(uri, err);
  }
}

/** The head revision of an item, only when it belongs to the project the URI names (else -32002, as unknown). */
async function headOf(bus: Caller, uri: string, projectId: string, key: string) {
  const node = await call(bus, TwinActions.getNode, { item_key: key });
  if (node.project_id !== projectId || node.item_key !== key) throw notFound(uri);
  return node;
}

const itemEntry = (i: Item): McpResource | undefined => {
  const uri = Uris.workProduct.expand({ project_id: i.project_id ?? '', item_key: i.key });
  if (!uri || !i.head_ref) return undefined;
  return {
    uri,
    name: i.name,
    title: `${i.head_ref} ${i.name}`,
    description: `${i.item_type}, head revision ${i.head_ref}`,
    mimeType: 'application/json',
  };
};

/**
 * The twin's work products as resources, per project: the project's item list, each item's head revision (JSON) and
 * the file stored with it (text or blob). Metadata comes from the twin actor; file bytes from the blob store on the
 * gateway's own database, as the HTTP file route serves them.
 */
export function workProductsProvider(
  bus: Caller,
  db: (() => Promise<Queryable>) | undefined,
  candidates: CandidateSources,
): ResourceProvider {
  const templates = [Uris.workProducts, Uris.workProduct, Uris.workProductFile];
  const complete = async (variable: string, ctx: Record<string, string>) =>
    variable === 'project_id'
      ? candidates.projects()
      : variable === 'item_key'
        ? candidates.itemKeys(ctx.project_id)
        : [];

  async function read(uri: string) {
    const list = Uris.workProducts.match(uri);
    if (list) {
      const project = await projectOf(bus, uri, list.project_id);
      const { items } = await call(bus, TwinActions.listItems, { project_id: list.project_id });
      const heads = items.filter((i) => i.head_ref);
      return jsonContents(uri, {
        project_id: project.id,
        project_name: project.name,
        items: heads.map((i) => ({ ...i, uri: itemEntry(i)?.uri ?? null })),
      });
    }
    const one = Uris.workProduct.match(uri);
    if (one) {
      const node = await headOf(bus, uri, one.project_id, one.item_key);
      const fileUri = node.object_key ? Uris.workProductFile.expand(one) : undefined;
      return jsonContents(uri, { uri, file_uri: fileUri ?? null, node });
    }
    const file = Uris.workProductFile.match(uri);
    if (!file) throw notFound(uri);
    const node = await headOf(bus, uri, file.project_id, file.item_key);
    if (!node.object_key) throw rpcError('RESOURCE_NOT_FOUND', `${node.item_ref} has no stored file: ${uri}`, { uri });
    if (!db) throw rpcError('RESOURCE_READ_ERROR', 'this gateway has no database connection for stored files', { uri });
    const blob = await createBlobStore(await db()).getByKey(node.object_key);
    if (!blob)
      throw rpcError('RESOURCE_READ_ERROR', `the file of ${node.item_ref} is missing from the blob store`, { uri });
    if (blob.size_bytes > MAX_RESOURCE_FILE_BYTES)
      throw rpcError(
        'RESOURCE_READ_ERROR',
        `the file of ${node.item_ref} is ${blob.size_bytes} bytes, more than a resource carries; fetch GET /v1/twin/nodes/${node.id}/file`,
        { uri, size_bytes: blob.size_bytes },
      );
    const name =
      typeof node.properties.file_name === 'string' ? node.properties.file_name : path.posix.basename(node.object_key);
    const recorded = typeof node.properties.media_type === 'string' ? node.properties.media_type : blob.media_type;
    return fileContents(uri, blob.content, recorded, name);
  }

  return {
    name: 'work-products',
    templates: [
      {
        uri: Uris.workProducts,
        uriTemplate: Uris.workProducts.template,
        name: 'project-work-products',
        title: "A project's work products",
        description: 'Every item of the project with its head revision ref',
        mimeType: 'application/json',
        complete,
      },
      {
        uri: Uris.workProduct,
        uriTemplate: Uris.workProduct.template,
        name: 'work-product',
        title: 'The head revision of an item',
        description: 'Node, properties and edges of the current revision',
        mimeType: 'application/json',
        complete,
      },
      {
        uri: Uris.workProductFile,
        uriTemplate: Uris.workProductFile.template,
        name: 'work-product-file',
        title: 'The file of an item',
        description: 'The file stored with the head revision: text, or a base64 blob with its media type',
        complete,
      },
    ],

    async list(offset, limit) {
      const { items } = await call(bus, TwinActions.listItems, {});
      const entries: McpResource[] = [];
      let project: string | null = null;
      for (const i of items
        .filter((x) => x.project_id && x.head_ref)
        .sort((a, b) => a.project_id!.localeCompare(b.project_id!))) {
        if (i.project_id !== project) {
          project = i.project_id;
          const uri = Uris.workProducts.expand({ project_id: project ?? '' });
          if (uri)
            entries.push({
              uri,
              name: `work-products of ${project}`,
              title: 'Work products of a project',
              mimeType: 'application/json',
            });
        }
        const e = itemEntry(i);
        if (e) entries.push(e);
      }
      const page = entries.slice(offset, offset + limit);
      return { resources: page, next: offset + page.length < entries.length ? offset + page.length : undefined };
    },

    owns: (uri) => templates.some((t) => t.match(uri)),

    read,

    async check(uri) {
      const list = Uris.workProducts.match(uri);
      if (list) return void (await projectOf(bus, uri, list.project_id));
      const one = Uris.workProduct.match(uri) ?? Uris.workProductFile.match(uri);
      if (!one) throw notFound(uri);
      const node = await headOf(bus, uri, one.project_id, one.item_key);
      if (Uris.workProductFile.match(uri) && !node.object_key) throw notFound(uri);
    },
  };
}
