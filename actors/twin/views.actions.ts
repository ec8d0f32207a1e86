import type { ActionSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { txRetryOnUnique, type Db } from '../../brokers/db/index.ts';
import type { Infra } from '../../brokers/infra.ts';
import { TwinViewActions as V } from '../../contracts/actions/twin-views.actions.ts';
import { bomList } from './bom-view.ts';
import { links, listNodes, nodeView, relationships } from './graph-views.ts';
import { derivedPrd, projectPrdRef, renderPrdMarkdown } from './prd-view.ts';
import { createLoadCase, listLoadCases, simResults } from './sim-views.ts';
import { addConstraint, importFile } from './view-writes.ts';
import { currentView, itemDiff, nodeVersions, revisionIndex } from './views.ts';

/**
 * The twin actor's read views and HTTP-driven writes (`TwinViewActions`), spread into its `actions`. `db` is read at
 * call time: the actor opens its database in `started()`.
 */
export function viewActions(db: () => Db, infra: Infra): Record<string, ActionSchema> {
  return {
    currentView: action(V.currentView, (p) => currentView(db(), p.project_id)),
    itemDiff: action(V.itemDiff, (p) => itemDiff(db(), p)),
    derivedPrd: action(V.derivedPrd, (p) => derivedPrd(db(), p.ref)),
    projectPrd: action(V.projectPrd, async (p) => {
      const doc = await derivedPrd(db(), await projectPrdRef(db(), p.project_id));
      return { project_id: p.project_id, ref: doc.ref, markdown: renderPrdMarkdown(doc) };
    }),
    nodes: action(V.nodes, (p) => listNodes(db(), p)),
    nodeView: action(V.nodeView, (p) => nodeView(db(), p.node_id)),
    relationships: action(V.relationships, (p) => relationships(db(), p.node_id, p.rel_type)),
    links: action(V.links, (p) => links(db(), p)),
    revisionIndex: action(V.revisionIndex, (p) => revisionIndex(db(), p.project_id, p.limit, p.offset)),
    nodeVersions: action(V.nodeVersions, (p) => nodeVersions(db(), p.node_id)),
    simResults: action(V.simResults, (p) => simResults(db(), p)),
    loadCases: action(V.loadCases, (p) => listLoadCases(db(), p)),
    createLoadCase: action(V.createLoadCase, (p) => createLoadCase(db(), p, infra.now())),
    bom: action(V.bom, (p) => bomList(db(), p.project_id)),
    addConstraint: action(V.addConstraint, (p) => txRetryOnUnique(db(), (q) => addConstraint(q, p, infra.now()))),
    importFile: action(V.importFile, (p) => txRetryOnUnique(db(), (q) => importFile(q, p, infra.now()))),
  };
}
