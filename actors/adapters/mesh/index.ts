export { generateMeshTool, GenerateMeshInputSchema, type GenerateMeshDeps } from './generate-mesh.tool.ts';
export { createMeshFacesService } from '../../named-faces/named-faces.service.ts';
export { meshStep, type MeshedStep } from './gmsh.ts';
