import { definePlugin } from '@linguaport/sdk/console';
import { FileManager } from './FileManager.js';
import { FileView } from './FileView.js';
import { FileView2 } from './FileView2.js';
import { FileViewOCR } from './FileViewOCR.js';
import { FileViewPic } from './FileViewPic.js';
import { Pdf } from './Pdf.js';
import { TransFile } from './TransFile.js';
import { TransPic } from './TransPic.js';
import { FileViewDog, TransFileDog } from './TransFileDog.js';

export default definePlugin({ id: 'trans-file', views: { TransFile, FileView, FileView2, FileViewOCR, FileViewPic, FileManager, Pdf, TransFileDog, FileViewDog, TransPic } });
