// The server stories on node (see server-stories.ts): a regression there fails the build.
import { serverStories } from './server-stories.js';

serverStories('node');
