/**
 * The product's route table (spec 01 sections 2.3 and 2.4). The registry the server sends is cut
 * down to the plugins a user reaches, so it cannot tell "a page that exists but is not yours"
 * (sent to the first permitted path) from "no such page" (sent to /404); this list can.
 */
export const PRODUCT_ROUTES: ReadonlySet<string> = new Set([
  '/home', '/dashboard', '/service', '/user', '/domain', '/term', '/termHistory', '/TM', '/TMHistory', '/corpus',
  '/translation', '/translationAdmin', '/increment', '/datacorrect', '/datacorrectImplementation', '/datacorrectManager',
  '/datacorrectManagerInfo', '/deploy', '/plugIn', '/operationLog', '/feedback', '/feedbackManager', '/dictionary',
  '/dictionarySetting', '/api', '/apiManager', '/transText', '/transFile', '/transFileManager', '/transFileDog', '/transPic',
  '/transVideo', '/fileManager', '/simultaneousInterpretation', '/voiceprintRecognition', '/transRecords', '/fileView',
  '/fileViewPic', '/fileViewDog', '/fileView2', '/fileViewOCR', '/participle', '/clause', '/language', '/pdf', '/video',
  '/role', '/department', '/limit', '/news', '/cat', '/catImplementation', '/catView', '/catManager', '/catAdd',
  '/catManagerInfo', '/catManagerUpload', '/catManagerDistribution', '/catManagerImplementation',
  '/simultaneousInterpretationLog', '/simultaneousInterpretingConfiguration', '/custom', '/languageSorting',
]);
