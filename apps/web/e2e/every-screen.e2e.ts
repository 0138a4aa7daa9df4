import { everyScreen } from './every-screen.ts';

everyScreen('light');
