/**
 * Standard interchange formats of language resources, read streaming and written streaming:
 * TMX 1.4b (memories, corpora) and TBX-Basic (term bases).
 */
export {};
