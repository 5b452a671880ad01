import 'reflect-metadata';
import { writeOpenApiDocumentFromArgs } from '@letterbox/http';
import { READ_API } from './create-read-api';
import { loadReadApiConfig } from './read-api.config';
import { ReadApiModule } from './read-api.module';

// The webmail's API types are generated from this document (scripts/webmail-api-types.ts).
// Settings only shape providers, which preview mode never makes; the demo's are valid without any environment.
writeOpenApiDocumentFromArgs(() => ReadApiModule.forConfig(loadReadApiConfig({ LETTERBOX_DEMO: 'true' })), READ_API);
