#!/usr/bin/env python3
"""An inference script in the shape of Ascend's pyACL samples, written for asc-tools' tests.

    pyacl_app.py MODEL.om OUT_DIR [--input a.bin,b.bin] [--batch N] [--loop N]

init, device, context, stream, load, description, datasets of device buffers, execute, copy
back, teardown; writes output_<i>.bin and prints what the model reports.
"""
import argparse
import os
import sys

import numpy as np

import acl

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_DYNAMIC_TENSOR_NAME = "ascend_mbatch_shape_data"


def check(ret, what):
    if ret != 0:
        raise RuntimeError("%s failed: %d (%s)" % (what, ret, acl.get_recent_err_msg()))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("out")
    p.add_argument("--input", default="")
    p.add_argument("--batch", type=int, default=0)
    p.add_argument("--loop", type=int, default=1)
    a = p.parse_args()

    check(acl.init(), "acl.init")
    check(acl.rt.set_device(0), "acl.rt.set_device")
    context, ret = acl.rt.create_context(0)
    check(ret, "acl.rt.create_context")
    stream, ret = acl.rt.create_stream()
    check(ret, "acl.rt.create_stream")
    mode, ret = acl.rt.get_run_mode()
    check(ret, "acl.rt.get_run_mode")
    print("run mode", "host" if mode == 1 else "device")

    model_id, ret = acl.mdl.load_from_file(a.model)
    check(ret, "acl.mdl.load_from_file")
    desc = acl.mdl.create_desc()
    check(acl.mdl.get_desc(desc, model_id), "acl.mdl.get_desc")
    dyn_index, ret = acl.mdl.get_input_index_by_name(desc, ACL_DYNAMIC_TENSOR_NAME)
    if ret != 0:
        dyn_index = -1

    files = [f for f in a.input.split(",") if f]
    in_ds, out_ds = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    device = []
    for i in range(acl.mdl.get_num_inputs(desc)):
        size = acl.mdl.get_input_size_by_index(desc, i)
        dims, ret = acl.mdl.get_input_dims(desc, i)
        check(ret, "acl.mdl.get_input_dims")
        print("input", i, dims["name"], "size", size, "dims", dims["dims"])
        dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "acl.rt.malloc")
        device.append(dev)
        check(acl.rt.memset(dev, size, 0, size), "acl.rt.memset")
        if i != dyn_index and i < len(files):
            host = np.fromfile(files[i], dtype=np.uint8)
            ptr = acl.util.numpy_to_ptr(host)
            check(acl.rt.memcpy(dev, size, ptr, host.nbytes, ACL_MEMCPY_HOST_TO_DEVICE), "acl.rt.memcpy")
        buf = acl.create_data_buffer(dev, size)
        _, ret = acl.mdl.add_dataset_buffer(in_ds, buf)
        check(ret, "acl.mdl.add_dataset_buffer")
    if a.batch:
        check(acl.mdl.set_dynamic_batch_size(model_id, in_ds, dyn_index, a.batch), "acl.mdl.set_dynamic_batch_size")
    for i in range(acl.mdl.get_num_outputs(desc)):
        size = acl.mdl.get_output_size_by_index(desc, i)
        dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "acl.rt.malloc")
        device.append(dev)
        _, ret = acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(dev, size))
        check(ret, "acl.mdl.add_dataset_buffer")

    for _ in range(a.loop):
        check(acl.mdl.execute_async(model_id, in_ds, out_ds, stream), "acl.mdl.execute_async")
        check(acl.rt.synchronize_stream(stream), "acl.rt.synchronize_stream")

    for i in range(acl.mdl.get_dataset_num_buffers(out_ds)):
        buf = acl.mdl.get_dataset_buffer(out_ds, i)
        size = acl.get_data_buffer_size_v2(buf)
        real = acl.mdl.get_dataset_tensor_desc(out_ds, i)
        if real:
            size = acl.get_tensor_desc_size(real)
        host = np.zeros(size, dtype=np.uint8)
        check(acl.rt.memcpy(acl.util.numpy_to_ptr(host), size, acl.get_data_buffer_addr(buf), size,
                            ACL_MEMCPY_DEVICE_TO_HOST), "acl.rt.memcpy")
        host.tofile(os.path.join(a.out, "output_%d.bin" % i))
        print("output", i, acl.mdl.get_output_name_by_index(desc, i), "size", size)

    for ds in (in_ds, out_ds):
        for i in range(acl.mdl.get_dataset_num_buffers(ds)):
            check(acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i)), "acl.destroy_data_buffer")
        check(acl.mdl.destroy_dataset(ds), "acl.mdl.destroy_dataset")
    for dev in device:
        check(acl.rt.free(dev), "acl.rt.free")
    check(acl.mdl.destroy_desc(desc), "acl.mdl.destroy_desc")
    check(acl.mdl.unload(model_id), "acl.mdl.unload")
    check(acl.rt.destroy_stream(stream), "acl.rt.destroy_stream")
    check(acl.rt.destroy_context(context), "acl.rt.destroy_context")
    check(acl.rt.reset_device(0), "acl.rt.reset_device")
    check(acl.finalize(), "acl.finalize")
    print("execute sample success")


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        print("[ERROR]", e, file=sys.stderr)
        sys.exit(1)
