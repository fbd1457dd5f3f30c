export { loadPipeline } from './load.js';
export { type Pipeline, pipelineFileSchema, pipelineSchema } from './schema.js';
export { type ServiceTarget, parseService } from './service.js';
