import 'reflect-metadata';
import { writeOpenApiDocumentFromArgs } from '@letterbox/http';
import { SEND_API } from './create-send-api';
import { loadSendApiConfig } from './send-api.config';
import { SendApiModule } from './send-api.module';

// The webmail's API types are generated from this document (scripts/webmail-api-types.ts).
// Settings only shape providers, which preview mode never makes; the demo's are valid without any environment.
writeOpenApiDocumentFromArgs(() => SendApiModule.forConfig(loadSendApiConfig({ LETTERBOX_DEMO: 'true' })), SEND_API);
