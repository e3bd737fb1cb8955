import { definePlugin } from '@linguaport/sdk/console';
import { Feedback } from './Feedback.js';
import { FeedbackManager } from './FeedbackManager.js';

export default definePlugin({ id: 'feedback', views: { Feedback, FeedbackManager } });
