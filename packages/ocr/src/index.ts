// Tesseract as the built-in OCR engine (an OcrAdapter, the SDK's contract) and its language packs.
export { createTesseractAdapter, readTesseractPage, tesseractLanguages, ocrLanguagesFor, tesseractPacksOf, tesseractPacksFor, platformLanguageOfPack, type TesseractOptions } from './tesseract.js';
