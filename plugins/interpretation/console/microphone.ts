/**
 * The microphone as 16 kHz mono 16-bit PCM frames of about 200 ms: getUserMedia, a ScriptProcessor
 * (an AudioWorklet would need a module URL the plugin bundle does not have) and a linear-interpolating
 * downsampler from the context's rate. `stop()` releases the device.
 */
export interface Capture {
  stop(): void;
}

export async function captureMicrophone(onFrame: (pcm: ArrayBuffer) => void, frameMs = 200): Promise<Capture> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  const processor = context.createScriptProcessor(4096, 1, 1);
  const ratio = context.sampleRate / 16_000;
  const per = Math.round((16_000 * frameMs) / 1000);
  let pending = new Int16Array(per);
  let filled = 0;
  let position = 0;
  let carry: Float32Array = new Float32Array(0);
  processor.onaudioprocess = (event) => {
    const input = event.inputBuffer.getChannelData(0);
    const data = new Float32Array(carry.length + input.length);
    data.set(carry);
    data.set(input, carry.length);
    for (; position + 1 < data.length; position += ratio) {
      const i = Math.floor(position);
      const f = position - i;
      const v = data[i]! * (1 - f) + data[i + 1]! * f;
      pending[filled++] = Math.max(-32768, Math.min(32767, Math.round(v * 32767)));
      if (filled === per) {
        onFrame(pending.buffer);
        pending = new Int16Array(per);
        filled = 0;
      }
    }
    const keep = Math.floor(position);
    carry = data.slice(keep);
    position -= keep;
  };
  source.connect(processor);
  // A ScriptProcessor only runs while connected to the output; it writes silence there.
  processor.connect(context.destination);
  return {
    stop() {
      processor.onaudioprocess = null;
      processor.disconnect();
      source.disconnect();
      stream.getTracks().forEach((track) => track.stop());
      void context.close();
    },
  };
}
