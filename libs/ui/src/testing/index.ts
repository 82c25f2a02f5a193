// Screen tests of every front-end: one way to render a screen and one stand-in for the network.
export { type RenderScreenOptions, currentLocation, renderScreen } from './render-screen';
export {
  type StubAnswer,
  type StubCall,
  type StubRoutes,
  json,
  listWithDeletion,
  page,
  stubApi,
} from './stub-api';
export { ScriptedUpload, imageFile, mediaUrl } from './scripted-upload';
export { type ServerDrawn, drawnByServer } from './server-drawn';
export { columnHeaders } from './table';
