export { createCircuitAdapter } from './circuit.adapter.ts';
export { parseRawFile, RawFileError, PLOT_NAMES, type RawPlot, type RawVariable } from './raw-file.ts';
export { prepareNetlist, analysisCard, type AnalysisType, type AnalysisParams } from './netlist.ts';
export { checkStatements } from '../kit/spice/netlist-policy.ts';
export { judgeRun, failureMessage, type NgspiceRun, type RunVerdict } from './outcome.ts';
export { summarise, selectVectors, decimationIndices, magnitudeDb, unwrappedPhaseDeg } from './results.ts';
export {
  RunSimulationInputSchema,
  RunSimulationResultSchema,
  type RunSimulationInput,
  type RunSimulationResult,
} from './circuit.schemas.ts';
