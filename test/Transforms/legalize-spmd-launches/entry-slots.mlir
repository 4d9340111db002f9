// A CHIP orchestration entry holds at most 256 tensors and 128 scalars
// (simpler's ChipTaskArgs): a tensor per tensor parameter, a scalar per
// integer or CommContext parameter, and a !pld.dtensor parameter is given its
// CommContext later in the pipeline (--materialize-dist-tensor-ctx).
// --legalize-spmd-launches refuses a function past either, at the function
// (else nothing can call the entry). At the limits it is accepted.
// RUN: pld-opt %s --split-input-file --legalize-spmd-launches --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @at_the_limits
func.func @at_the_limits(
    %a0: !pl.tensor<4xf32>, %a1: !pl.tensor<4xf32>, %a2: !pl.tensor<4xf32>, %a3: !pl.tensor<4xf32>, %a4: !pl.tensor<4xf32>, %a5: !pl.tensor<4xf32>, %a6: !pl.tensor<4xf32>, %a7: !pl.tensor<4xf32>,
    %a8: !pl.tensor<4xf32>, %a9: !pl.tensor<4xf32>, %a10: !pl.tensor<4xf32>, %a11: !pl.tensor<4xf32>, %a12: !pl.tensor<4xf32>, %a13: !pl.tensor<4xf32>, %a14: !pl.tensor<4xf32>, %a15: !pl.tensor<4xf32>,
    %a16: !pl.tensor<4xf32>, %a17: !pl.tensor<4xf32>, %a18: !pl.tensor<4xf32>, %a19: !pl.tensor<4xf32>, %a20: !pl.tensor<4xf32>, %a21: !pl.tensor<4xf32>, %a22: !pl.tensor<4xf32>, %a23: !pl.tensor<4xf32>,
    %a24: !pl.tensor<4xf32>, %a25: !pl.tensor<4xf32>, %a26: !pl.tensor<4xf32>, %a27: !pl.tensor<4xf32>, %a28: !pl.tensor<4xf32>, %a29: !pl.tensor<4xf32>, %a30: !pl.tensor<4xf32>, %a31: !pl.tensor<4xf32>,
    %a32: !pl.tensor<4xf32>, %a33: !pl.tensor<4xf32>, %a34: !pl.tensor<4xf32>, %a35: !pl.tensor<4xf32>, %a36: !pl.tensor<4xf32>, %a37: !pl.tensor<4xf32>, %a38: !pl.tensor<4xf32>, %a39: !pl.tensor<4xf32>,
    %a40: !pl.tensor<4xf32>, %a41: !pl.tensor<4xf32>, %a42: !pl.tensor<4xf32>, %a43: !pl.tensor<4xf32>, %a44: !pl.tensor<4xf32>, %a45: !pl.tensor<4xf32>, %a46: !pl.tensor<4xf32>, %a47: !pl.tensor<4xf32>,
    %a48: !pl.tensor<4xf32>, %a49: !pl.tensor<4xf32>, %a50: !pl.tensor<4xf32>, %a51: !pl.tensor<4xf32>, %a52: !pl.tensor<4xf32>, %a53: !pl.tensor<4xf32>, %a54: !pl.tensor<4xf32>, %a55: !pl.tensor<4xf32>,
    %a56: !pl.tensor<4xf32>, %a57: !pl.tensor<4xf32>, %a58: !pl.tensor<4xf32>, %a59: !pl.tensor<4xf32>, %a60: !pl.tensor<4xf32>, %a61: !pl.tensor<4xf32>, %a62: !pl.tensor<4xf32>, %a63: !pl.tensor<4xf32>,
    %a64: !pl.tensor<4xf32>, %a65: !pl.tensor<4xf32>, %a66: !pl.tensor<4xf32>, %a67: !pl.tensor<4xf32>, %a68: !pl.tensor<4xf32>, %a69: !pl.tensor<4xf32>, %a70: !pl.tensor<4xf32>, %a71: !pl.tensor<4xf32>,
    %a72: !pl.tensor<4xf32>, %a73: !pl.tensor<4xf32>, %a74: !pl.tensor<4xf32>, %a75: !pl.tensor<4xf32>, %a76: !pl.tensor<4xf32>, %a77: !pl.tensor<4xf32>, %a78: !pl.tensor<4xf32>, %a79: !pl.tensor<4xf32>,
    %a80: !pl.tensor<4xf32>, %a81: !pl.tensor<4xf32>, %a82: !pl.tensor<4xf32>, %a83: !pl.tensor<4xf32>, %a84: !pl.tensor<4xf32>, %a85: !pl.tensor<4xf32>, %a86: !pl.tensor<4xf32>, %a87: !pl.tensor<4xf32>,
    %a88: !pl.tensor<4xf32>, %a89: !pl.tensor<4xf32>, %a90: !pl.tensor<4xf32>, %a91: !pl.tensor<4xf32>, %a92: !pl.tensor<4xf32>, %a93: !pl.tensor<4xf32>, %a94: !pl.tensor<4xf32>, %a95: !pl.tensor<4xf32>,
    %a96: !pl.tensor<4xf32>, %a97: !pl.tensor<4xf32>, %a98: !pl.tensor<4xf32>, %a99: !pl.tensor<4xf32>, %a100: !pl.tensor<4xf32>, %a101: !pl.tensor<4xf32>, %a102: !pl.tensor<4xf32>, %a103: !pl.tensor<4xf32>,
    %a104: !pl.tensor<4xf32>, %a105: !pl.tensor<4xf32>, %a106: !pl.tensor<4xf32>, %a107: !pl.tensor<4xf32>, %a108: !pl.tensor<4xf32>, %a109: !pl.tensor<4xf32>, %a110: !pl.tensor<4xf32>, %a111: !pl.tensor<4xf32>,
    %a112: !pl.tensor<4xf32>, %a113: !pl.tensor<4xf32>, %a114: !pl.tensor<4xf32>, %a115: !pl.tensor<4xf32>, %a116: !pl.tensor<4xf32>, %a117: !pl.tensor<4xf32>, %a118: !pl.tensor<4xf32>, %a119: !pl.tensor<4xf32>,
    %a120: !pl.tensor<4xf32>, %a121: !pl.tensor<4xf32>, %a122: !pl.tensor<4xf32>, %a123: !pl.tensor<4xf32>, %a124: !pl.tensor<4xf32>, %a125: !pl.tensor<4xf32>, %a126: !pl.tensor<4xf32>, %a127: !pl.tensor<4xf32>,
    %a128: !pl.tensor<4xf32>, %a129: !pl.tensor<4xf32>, %a130: !pl.tensor<4xf32>, %a131: !pl.tensor<4xf32>, %a132: !pl.tensor<4xf32>, %a133: !pl.tensor<4xf32>, %a134: !pl.tensor<4xf32>, %a135: !pl.tensor<4xf32>,
    %a136: !pl.tensor<4xf32>, %a137: !pl.tensor<4xf32>, %a138: !pl.tensor<4xf32>, %a139: !pl.tensor<4xf32>, %a140: !pl.tensor<4xf32>, %a141: !pl.tensor<4xf32>, %a142: !pl.tensor<4xf32>, %a143: !pl.tensor<4xf32>,
    %a144: !pl.tensor<4xf32>, %a145: !pl.tensor<4xf32>, %a146: !pl.tensor<4xf32>, %a147: !pl.tensor<4xf32>, %a148: !pl.tensor<4xf32>, %a149: !pl.tensor<4xf32>, %a150: !pl.tensor<4xf32>, %a151: !pl.tensor<4xf32>,
    %a152: !pl.tensor<4xf32>, %a153: !pl.tensor<4xf32>, %a154: !pl.tensor<4xf32>, %a155: !pl.tensor<4xf32>, %a156: !pl.tensor<4xf32>, %a157: !pl.tensor<4xf32>, %a158: !pl.tensor<4xf32>, %a159: !pl.tensor<4xf32>,
    %a160: !pl.tensor<4xf32>, %a161: !pl.tensor<4xf32>, %a162: !pl.tensor<4xf32>, %a163: !pl.tensor<4xf32>, %a164: !pl.tensor<4xf32>, %a165: !pl.tensor<4xf32>, %a166: !pl.tensor<4xf32>, %a167: !pl.tensor<4xf32>,
    %a168: !pl.tensor<4xf32>, %a169: !pl.tensor<4xf32>, %a170: !pl.tensor<4xf32>, %a171: !pl.tensor<4xf32>, %a172: !pl.tensor<4xf32>, %a173: !pl.tensor<4xf32>, %a174: !pl.tensor<4xf32>, %a175: !pl.tensor<4xf32>,
    %a176: !pl.tensor<4xf32>, %a177: !pl.tensor<4xf32>, %a178: !pl.tensor<4xf32>, %a179: !pl.tensor<4xf32>, %a180: !pl.tensor<4xf32>, %a181: !pl.tensor<4xf32>, %a182: !pl.tensor<4xf32>, %a183: !pl.tensor<4xf32>,
    %a184: !pl.tensor<4xf32>, %a185: !pl.tensor<4xf32>, %a186: !pl.tensor<4xf32>, %a187: !pl.tensor<4xf32>, %a188: !pl.tensor<4xf32>, %a189: !pl.tensor<4xf32>, %a190: !pl.tensor<4xf32>, %a191: !pl.tensor<4xf32>,
    %a192: !pl.tensor<4xf32>, %a193: !pl.tensor<4xf32>, %a194: !pl.tensor<4xf32>, %a195: !pl.tensor<4xf32>, %a196: !pl.tensor<4xf32>, %a197: !pl.tensor<4xf32>, %a198: !pl.tensor<4xf32>, %a199: !pl.tensor<4xf32>,
    %a200: !pl.tensor<4xf32>, %a201: !pl.tensor<4xf32>, %a202: !pl.tensor<4xf32>, %a203: !pl.tensor<4xf32>, %a204: !pl.tensor<4xf32>, %a205: !pl.tensor<4xf32>, %a206: !pl.tensor<4xf32>, %a207: !pl.tensor<4xf32>,
    %a208: !pl.tensor<4xf32>, %a209: !pl.tensor<4xf32>, %a210: !pl.tensor<4xf32>, %a211: !pl.tensor<4xf32>, %a212: !pl.tensor<4xf32>, %a213: !pl.tensor<4xf32>, %a214: !pl.tensor<4xf32>, %a215: !pl.tensor<4xf32>,
    %a216: !pl.tensor<4xf32>, %a217: !pl.tensor<4xf32>, %a218: !pl.tensor<4xf32>, %a219: !pl.tensor<4xf32>, %a220: !pl.tensor<4xf32>, %a221: !pl.tensor<4xf32>, %a222: !pl.tensor<4xf32>, %a223: !pl.tensor<4xf32>,
    %a224: !pl.tensor<4xf32>, %a225: !pl.tensor<4xf32>, %a226: !pl.tensor<4xf32>, %a227: !pl.tensor<4xf32>, %a228: !pl.tensor<4xf32>, %a229: !pl.tensor<4xf32>, %a230: !pl.tensor<4xf32>, %a231: !pl.tensor<4xf32>,
    %a232: !pl.tensor<4xf32>, %a233: !pl.tensor<4xf32>, %a234: !pl.tensor<4xf32>, %a235: !pl.tensor<4xf32>, %a236: !pl.tensor<4xf32>, %a237: !pl.tensor<4xf32>, %a238: !pl.tensor<4xf32>, %a239: !pl.tensor<4xf32>,
    %a240: !pl.tensor<4xf32>, %a241: !pl.tensor<4xf32>, %a242: !pl.tensor<4xf32>, %a243: !pl.tensor<4xf32>, %a244: !pl.tensor<4xf32>, %a245: !pl.tensor<4xf32>, %a246: !pl.tensor<4xf32>, %a247: !pl.tensor<4xf32>,
    %a248: !pl.tensor<4xf32>, %a249: !pl.tensor<4xf32>, %a250: !pl.tensor<4xf32>, %a251: !pl.tensor<4xf32>, %a252: !pl.tensor<4xf32>, %a253: !pl.tensor<4xf32>, %a254: !pl.tensor<4xf32>, %a255: !pl.tensor<4xf32>,
    %a256: i32, %a257: i32, %a258: i32, %a259: i32, %a260: i32, %a261: i32, %a262: i32, %a263: i32,
    %a264: i32, %a265: i32, %a266: i32, %a267: i32, %a268: i32, %a269: i32, %a270: i32, %a271: i32,
    %a272: i32, %a273: i32, %a274: i32, %a275: i32, %a276: i32, %a277: i32, %a278: i32, %a279: i32,
    %a280: i32, %a281: i32, %a282: i32, %a283: i32, %a284: i32, %a285: i32, %a286: i32, %a287: i32,
    %a288: i32, %a289: i32, %a290: i32, %a291: i32, %a292: i32, %a293: i32, %a294: i32, %a295: i32,
    %a296: i32, %a297: i32, %a298: i32, %a299: i32, %a300: i32, %a301: i32, %a302: i32, %a303: i32,
    %a304: i32, %a305: i32, %a306: i32, %a307: i32, %a308: i32, %a309: i32, %a310: i32, %a311: i32,
    %a312: i32, %a313: i32, %a314: i32, %a315: i32, %a316: i32, %a317: i32, %a318: i32, %a319: i32,
    %a320: i32, %a321: i32, %a322: i32, %a323: i32, %a324: i32, %a325: i32, %a326: i32, %a327: i32,
    %a328: i32, %a329: i32, %a330: i32, %a331: i32, %a332: i32, %a333: i32, %a334: i32, %a335: i32,
    %a336: i32, %a337: i32, %a338: i32, %a339: i32, %a340: i32, %a341: i32, %a342: i32, %a343: i32,
    %a344: i32, %a345: i32, %a346: i32, %a347: i32, %a348: i32, %a349: i32, %a350: i32, %a351: i32,
    %a352: i32, %a353: i32, %a354: i32, %a355: i32, %a356: i32, %a357: i32, %a358: i32, %a359: i32,
    %a360: i32, %a361: i32, %a362: i32, %a363: i32, %a364: i32, %a365: i32, %a366: i32, %a367: i32,
    %a368: i32, %a369: i32, %a370: i32, %a371: i32, %a372: i32, %a373: i32, %a374: i32, %a375: i32,
    %a376: i32, %a377: i32, %a378: i32, %a379: i32, %a380: i32, %a381: i32, %a382: i32, %a383: i32) attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// expected-error @+1 {{CHIP orchestration function @too_many_tensors must fit its entry's argument slots (at most 256 tensors and 128 scalars: simpler's ChipTaskArgs), got 257 tensor parameters and 0 scalars (0 integer, 0 CommContext)}}
func.func @too_many_tensors(
    %a0: !pl.tensor<4xf32>, %a1: !pl.tensor<4xf32>, %a2: !pl.tensor<4xf32>, %a3: !pl.tensor<4xf32>, %a4: !pl.tensor<4xf32>, %a5: !pl.tensor<4xf32>, %a6: !pl.tensor<4xf32>, %a7: !pl.tensor<4xf32>,
    %a8: !pl.tensor<4xf32>, %a9: !pl.tensor<4xf32>, %a10: !pl.tensor<4xf32>, %a11: !pl.tensor<4xf32>, %a12: !pl.tensor<4xf32>, %a13: !pl.tensor<4xf32>, %a14: !pl.tensor<4xf32>, %a15: !pl.tensor<4xf32>,
    %a16: !pl.tensor<4xf32>, %a17: !pl.tensor<4xf32>, %a18: !pl.tensor<4xf32>, %a19: !pl.tensor<4xf32>, %a20: !pl.tensor<4xf32>, %a21: !pl.tensor<4xf32>, %a22: !pl.tensor<4xf32>, %a23: !pl.tensor<4xf32>,
    %a24: !pl.tensor<4xf32>, %a25: !pl.tensor<4xf32>, %a26: !pl.tensor<4xf32>, %a27: !pl.tensor<4xf32>, %a28: !pl.tensor<4xf32>, %a29: !pl.tensor<4xf32>, %a30: !pl.tensor<4xf32>, %a31: !pl.tensor<4xf32>,
    %a32: !pl.tensor<4xf32>, %a33: !pl.tensor<4xf32>, %a34: !pl.tensor<4xf32>, %a35: !pl.tensor<4xf32>, %a36: !pl.tensor<4xf32>, %a37: !pl.tensor<4xf32>, %a38: !pl.tensor<4xf32>, %a39: !pl.tensor<4xf32>,
    %a40: !pl.tensor<4xf32>, %a41: !pl.tensor<4xf32>, %a42: !pl.tensor<4xf32>, %a43: !pl.tensor<4xf32>, %a44: !pl.tensor<4xf32>, %a45: !pl.tensor<4xf32>, %a46: !pl.tensor<4xf32>, %a47: !pl.tensor<4xf32>,
    %a48: !pl.tensor<4xf32>, %a49: !pl.tensor<4xf32>, %a50: !pl.tensor<4xf32>, %a51: !pl.tensor<4xf32>, %a52: !pl.tensor<4xf32>, %a53: !pl.tensor<4xf32>, %a54: !pl.tensor<4xf32>, %a55: !pl.tensor<4xf32>,
    %a56: !pl.tensor<4xf32>, %a57: !pl.tensor<4xf32>, %a58: !pl.tensor<4xf32>, %a59: !pl.tensor<4xf32>, %a60: !pl.tensor<4xf32>, %a61: !pl.tensor<4xf32>, %a62: !pl.tensor<4xf32>, %a63: !pl.tensor<4xf32>,
    %a64: !pl.tensor<4xf32>, %a65: !pl.tensor<4xf32>, %a66: !pl.tensor<4xf32>, %a67: !pl.tensor<4xf32>, %a68: !pl.tensor<4xf32>, %a69: !pl.tensor<4xf32>, %a70: !pl.tensor<4xf32>, %a71: !pl.tensor<4xf32>,
    %a72: !pl.tensor<4xf32>, %a73: !pl.tensor<4xf32>, %a74: !pl.tensor<4xf32>, %a75: !pl.tensor<4xf32>, %a76: !pl.tensor<4xf32>, %a77: !pl.tensor<4xf32>, %a78: !pl.tensor<4xf32>, %a79: !pl.tensor<4xf32>,
    %a80: !pl.tensor<4xf32>, %a81: !pl.tensor<4xf32>, %a82: !pl.tensor<4xf32>, %a83: !pl.tensor<4xf32>, %a84: !pl.tensor<4xf32>, %a85: !pl.tensor<4xf32>, %a86: !pl.tensor<4xf32>, %a87: !pl.tensor<4xf32>,
    %a88: !pl.tensor<4xf32>, %a89: !pl.tensor<4xf32>, %a90: !pl.tensor<4xf32>, %a91: !pl.tensor<4xf32>, %a92: !pl.tensor<4xf32>, %a93: !pl.tensor<4xf32>, %a94: !pl.tensor<4xf32>, %a95: !pl.tensor<4xf32>,
    %a96: !pl.tensor<4xf32>, %a97: !pl.tensor<4xf32>, %a98: !pl.tensor<4xf32>, %a99: !pl.tensor<4xf32>, %a100: !pl.tensor<4xf32>, %a101: !pl.tensor<4xf32>, %a102: !pl.tensor<4xf32>, %a103: !pl.tensor<4xf32>,
    %a104: !pl.tensor<4xf32>, %a105: !pl.tensor<4xf32>, %a106: !pl.tensor<4xf32>, %a107: !pl.tensor<4xf32>, %a108: !pl.tensor<4xf32>, %a109: !pl.tensor<4xf32>, %a110: !pl.tensor<4xf32>, %a111: !pl.tensor<4xf32>,
    %a112: !pl.tensor<4xf32>, %a113: !pl.tensor<4xf32>, %a114: !pl.tensor<4xf32>, %a115: !pl.tensor<4xf32>, %a116: !pl.tensor<4xf32>, %a117: !pl.tensor<4xf32>, %a118: !pl.tensor<4xf32>, %a119: !pl.tensor<4xf32>,
    %a120: !pl.tensor<4xf32>, %a121: !pl.tensor<4xf32>, %a122: !pl.tensor<4xf32>, %a123: !pl.tensor<4xf32>, %a124: !pl.tensor<4xf32>, %a125: !pl.tensor<4xf32>, %a126: !pl.tensor<4xf32>, %a127: !pl.tensor<4xf32>,
    %a128: !pl.tensor<4xf32>, %a129: !pl.tensor<4xf32>, %a130: !pl.tensor<4xf32>, %a131: !pl.tensor<4xf32>, %a132: !pl.tensor<4xf32>, %a133: !pl.tensor<4xf32>, %a134: !pl.tensor<4xf32>, %a135: !pl.tensor<4xf32>,
    %a136: !pl.tensor<4xf32>, %a137: !pl.tensor<4xf32>, %a138: !pl.tensor<4xf32>, %a139: !pl.tensor<4xf32>, %a140: !pl.tensor<4xf32>, %a141: !pl.tensor<4xf32>, %a142: !pl.tensor<4xf32>, %a143: !pl.tensor<4xf32>,
    %a144: !pl.tensor<4xf32>, %a145: !pl.tensor<4xf32>, %a146: !pl.tensor<4xf32>, %a147: !pl.tensor<4xf32>, %a148: !pl.tensor<4xf32>, %a149: !pl.tensor<4xf32>, %a150: !pl.tensor<4xf32>, %a151: !pl.tensor<4xf32>,
    %a152: !pl.tensor<4xf32>, %a153: !pl.tensor<4xf32>, %a154: !pl.tensor<4xf32>, %a155: !pl.tensor<4xf32>, %a156: !pl.tensor<4xf32>, %a157: !pl.tensor<4xf32>, %a158: !pl.tensor<4xf32>, %a159: !pl.tensor<4xf32>,
    %a160: !pl.tensor<4xf32>, %a161: !pl.tensor<4xf32>, %a162: !pl.tensor<4xf32>, %a163: !pl.tensor<4xf32>, %a164: !pl.tensor<4xf32>, %a165: !pl.tensor<4xf32>, %a166: !pl.tensor<4xf32>, %a167: !pl.tensor<4xf32>,
    %a168: !pl.tensor<4xf32>, %a169: !pl.tensor<4xf32>, %a170: !pl.tensor<4xf32>, %a171: !pl.tensor<4xf32>, %a172: !pl.tensor<4xf32>, %a173: !pl.tensor<4xf32>, %a174: !pl.tensor<4xf32>, %a175: !pl.tensor<4xf32>,
    %a176: !pl.tensor<4xf32>, %a177: !pl.tensor<4xf32>, %a178: !pl.tensor<4xf32>, %a179: !pl.tensor<4xf32>, %a180: !pl.tensor<4xf32>, %a181: !pl.tensor<4xf32>, %a182: !pl.tensor<4xf32>, %a183: !pl.tensor<4xf32>,
    %a184: !pl.tensor<4xf32>, %a185: !pl.tensor<4xf32>, %a186: !pl.tensor<4xf32>, %a187: !pl.tensor<4xf32>, %a188: !pl.tensor<4xf32>, %a189: !pl.tensor<4xf32>, %a190: !pl.tensor<4xf32>, %a191: !pl.tensor<4xf32>,
    %a192: !pl.tensor<4xf32>, %a193: !pl.tensor<4xf32>, %a194: !pl.tensor<4xf32>, %a195: !pl.tensor<4xf32>, %a196: !pl.tensor<4xf32>, %a197: !pl.tensor<4xf32>, %a198: !pl.tensor<4xf32>, %a199: !pl.tensor<4xf32>,
    %a200: !pl.tensor<4xf32>, %a201: !pl.tensor<4xf32>, %a202: !pl.tensor<4xf32>, %a203: !pl.tensor<4xf32>, %a204: !pl.tensor<4xf32>, %a205: !pl.tensor<4xf32>, %a206: !pl.tensor<4xf32>, %a207: !pl.tensor<4xf32>,
    %a208: !pl.tensor<4xf32>, %a209: !pl.tensor<4xf32>, %a210: !pl.tensor<4xf32>, %a211: !pl.tensor<4xf32>, %a212: !pl.tensor<4xf32>, %a213: !pl.tensor<4xf32>, %a214: !pl.tensor<4xf32>, %a215: !pl.tensor<4xf32>,
    %a216: !pl.tensor<4xf32>, %a217: !pl.tensor<4xf32>, %a218: !pl.tensor<4xf32>, %a219: !pl.tensor<4xf32>, %a220: !pl.tensor<4xf32>, %a221: !pl.tensor<4xf32>, %a222: !pl.tensor<4xf32>, %a223: !pl.tensor<4xf32>,
    %a224: !pl.tensor<4xf32>, %a225: !pl.tensor<4xf32>, %a226: !pl.tensor<4xf32>, %a227: !pl.tensor<4xf32>, %a228: !pl.tensor<4xf32>, %a229: !pl.tensor<4xf32>, %a230: !pl.tensor<4xf32>, %a231: !pl.tensor<4xf32>,
    %a232: !pl.tensor<4xf32>, %a233: !pl.tensor<4xf32>, %a234: !pl.tensor<4xf32>, %a235: !pl.tensor<4xf32>, %a236: !pl.tensor<4xf32>, %a237: !pl.tensor<4xf32>, %a238: !pl.tensor<4xf32>, %a239: !pl.tensor<4xf32>,
    %a240: !pl.tensor<4xf32>, %a241: !pl.tensor<4xf32>, %a242: !pl.tensor<4xf32>, %a243: !pl.tensor<4xf32>, %a244: !pl.tensor<4xf32>, %a245: !pl.tensor<4xf32>, %a246: !pl.tensor<4xf32>, %a247: !pl.tensor<4xf32>,
    %a248: !pl.tensor<4xf32>, %a249: !pl.tensor<4xf32>, %a250: !pl.tensor<4xf32>, %a251: !pl.tensor<4xf32>, %a252: !pl.tensor<4xf32>, %a253: !pl.tensor<4xf32>, %a254: !pl.tensor<4xf32>, %a255: !pl.tensor<4xf32>,
    %a256: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// Each !pld.dtensor parameter will take a CommContext scalar.
// expected-error @+1 {{CHIP orchestration function @too_many_scalars must fit its entry's argument slots (at most 256 tensors and 128 scalars: simpler's ChipTaskArgs), got 29 tensor parameters and 129 scalars (100 integer, 29 CommContext)}}
func.func @too_many_scalars(
    %a0: i64, %a1: i64, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64, %a7: i64,
    %a8: i64, %a9: i64, %a10: i64, %a11: i64, %a12: i64, %a13: i64, %a14: i64, %a15: i64,
    %a16: i64, %a17: i64, %a18: i64, %a19: i64, %a20: i64, %a21: i64, %a22: i64, %a23: i64,
    %a24: i64, %a25: i64, %a26: i64, %a27: i64, %a28: i64, %a29: i64, %a30: i64, %a31: i64,
    %a32: i64, %a33: i64, %a34: i64, %a35: i64, %a36: i64, %a37: i64, %a38: i64, %a39: i64,
    %a40: i64, %a41: i64, %a42: i64, %a43: i64, %a44: i64, %a45: i64, %a46: i64, %a47: i64,
    %a48: i64, %a49: i64, %a50: i64, %a51: i64, %a52: i64, %a53: i64, %a54: i64, %a55: i64,
    %a56: i64, %a57: i64, %a58: i64, %a59: i64, %a60: i64, %a61: i64, %a62: i64, %a63: i64,
    %a64: i64, %a65: i64, %a66: i64, %a67: i64, %a68: i64, %a69: i64, %a70: i64, %a71: i64,
    %a72: i64, %a73: i64, %a74: i64, %a75: i64, %a76: i64, %a77: i64, %a78: i64, %a79: i64,
    %a80: i64, %a81: i64, %a82: i64, %a83: i64, %a84: i64, %a85: i64, %a86: i64, %a87: i64,
    %a88: i64, %a89: i64, %a90: i64, %a91: i64, %a92: i64, %a93: i64, %a94: i64, %a95: i64,
    %a96: i64, %a97: i64, %a98: i64, %a99: i64, %a100: !pld.dtensor<4xf32>, %a101: !pld.dtensor<4xf32>, %a102: !pld.dtensor<4xf32>, %a103: !pld.dtensor<4xf32>,
    %a104: !pld.dtensor<4xf32>, %a105: !pld.dtensor<4xf32>, %a106: !pld.dtensor<4xf32>, %a107: !pld.dtensor<4xf32>, %a108: !pld.dtensor<4xf32>, %a109: !pld.dtensor<4xf32>, %a110: !pld.dtensor<4xf32>, %a111: !pld.dtensor<4xf32>,
    %a112: !pld.dtensor<4xf32>, %a113: !pld.dtensor<4xf32>, %a114: !pld.dtensor<4xf32>, %a115: !pld.dtensor<4xf32>, %a116: !pld.dtensor<4xf32>, %a117: !pld.dtensor<4xf32>, %a118: !pld.dtensor<4xf32>, %a119: !pld.dtensor<4xf32>,
    %a120: !pld.dtensor<4xf32>, %a121: !pld.dtensor<4xf32>, %a122: !pld.dtensor<4xf32>, %a123: !pld.dtensor<4xf32>, %a124: !pld.dtensor<4xf32>, %a125: !pld.dtensor<4xf32>, %a126: !pld.dtensor<4xf32>, %a127: !pld.dtensor<4xf32>,
    %a128: !pld.dtensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  return
}
