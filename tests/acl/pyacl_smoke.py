#!/usr/bin/env python3
"""Smoke test of the pyACL-compatible `acl` module over asc-tools' libascendcl.

Run with PYTHONPATH pointing at the built module:
    PYTHONPATH=/path/to/dir/with/acl.so /usr/bin/python3 pyacl_smoke.py
Prints "pyacl smoke: ok" at the end; exits non-zero on the first failure.
"""
import importlib
import os
import sys

import numpy as np

import acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_FLOAT = 0
ACL_FORMAT_NCHW = 0
NPY_FLOAT32 = 11
NPY_UINT8 = 2

HERE = os.path.dirname(os.path.abspath(__file__))
# A model from the repository's fuzz corpus (atc-compiled ONNX Add: y = a + b, 1x3x4x4 float32
# inputs and output).
ADD_MODEL = os.path.join(HERE, "..", "fuzz", "corpus", "fuzz_om", "two_inputs.om")


class SmokeFailure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise SmokeFailure(what)


def check_ok(ret, call):
    if ret != ACL_SUCCESS:
        raise SmokeFailure("%s returned %r: %s" % (call, ret, acl.get_recent_err_msg()))


def check_raises(exc_type, fn, *args):
    try:
        fn(*args)
    except exc_type:
        return
    except Exception as e:  # the wrong exception
        raise SmokeFailure("%s%r raised %r, expected %s" % (fn.__name__, args, e, exc_type.__name__))
    raise SmokeFailure("%s%r did not raise %s" % (fn.__name__, args, exc_type.__name__))


def test_module_layout():
    for name in ("rt", "mdl", "util"):
        sub = getattr(acl, name)
        check(sys.modules["acl." + name] is sub, "sys.modules['acl.%s'] is acl.%s" % (name, name))
        check(importlib.import_module("acl." + name) is sub, "import acl.%s" % name)


def test_runtime():
    check_ok(acl.init(), "acl.init()")
    check_ok(acl.rt.set_device(0), "acl.rt.set_device(0)")
    device, ret = acl.rt.get_device()
    check_ok(ret, "acl.rt.get_device()")
    check(device == 0, "get_device() is 0, got %r" % device)
    count, ret = acl.rt.get_device_count()
    check_ok(ret, "acl.rt.get_device_count()")
    check(count >= 1, "at least one device, got %r" % count)
    _, ret = acl.rt.get_run_mode()
    check_ok(ret, "acl.rt.get_run_mode()")
    check(isinstance(acl.rt.get_soc_name(), str), "get_soc_name() is a str")
    free, total, ret = acl.rt.get_mem_info(0)
    check_ok(ret, "acl.rt.get_mem_info(0)")
    check(0 <= free <= total, "get_mem_info: free %r <= total %r" % (free, total))

    context, ret = acl.rt.create_context(0)
    check_ok(ret, "acl.rt.create_context(0)")
    check(isinstance(context, int) and context != 0, "context is a non-zero int")
    check_ok(acl.rt.set_context(context), "acl.rt.set_context")
    current, ret = acl.rt.get_context()
    check_ok(ret, "acl.rt.get_context()")
    check(current == context, "get_context() is the created context")
    stream, ret = acl.rt.create_stream()
    check_ok(ret, "acl.rt.create_stream()")
    check(stream != 0, "stream is non-zero")
    return context, stream


def test_memory(stream):
    dev, ret = acl.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ok(ret, "acl.rt.malloc(64)")
    check(isinstance(dev, int) and dev != 0, "malloc gives a non-zero int")

    src = np.arange(16, dtype=np.float32) * 1.5
    dst = np.zeros(16, dtype=np.float32)
    check_ok(acl.rt.memcpy(dev, 64, acl.util.numpy_to_ptr(src), 64, ACL_MEMCPY_HOST_TO_DEVICE),
             "memcpy host->device")
    check_ok(acl.rt.memcpy(acl.util.numpy_to_ptr(dst), dst.nbytes, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST),
             "memcpy device->host")
    check(np.array_equal(src, dst), "round trip through device memory: %r != %r" % (src, dst))

    # ptr_to_numpy views the device memory: reads see it, writes change it.
    view = acl.util.ptr_to_numpy(dev, (4, 4), NPY_FLOAT32)
    check(isinstance(view, np.ndarray) and view.shape == (4, 4) and view.dtype == np.float32,
          "ptr_to_numpy gives a 4x4 float32 array, got %r" % (view,))
    check(np.array_equal(view, src.reshape(4, 4)), "the view shows the device memory")
    check(view.flags.writeable, "the view is writable")
    view[1, 2] = -7.25
    back = np.zeros(16, dtype=np.float32)
    check_ok(acl.rt.memcpy(acl.util.numpy_to_ptr(back), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST),
             "memcpy device->host after writing through the view")
    check(back[6] == -7.25, "writing through the view changed the device memory")
    check(acl.util.ptr_to_numpy(dev, [64], NPY_UINT8).shape == (64,), "shape given as a list")
    check(acl.util.ptr_to_numpy(dev, (0, 3), NPY_FLOAT32).shape == (0, 3), "an empty view")

    # Asynchronous copy on the stream, and memset.
    check_ok(acl.rt.memset(dev, 64, 0, 64), "acl.rt.memset")
    check(not view.any(), "memset cleared the memory the view shows")
    check_ok(acl.rt.memcpy_async(dev, 64, acl.util.numpy_to_ptr(src), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream),
             "memcpy_async host->device")
    check_ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    check(np.array_equal(view.ravel(), src), "memcpy_async wrote the device memory")

    # bytes <-> pointers.
    payload = bytes(range(32))
    check_ok(acl.rt.memcpy(dev, 64, acl.util.bytes_to_ptr(payload), 32, ACL_MEMCPY_HOST_TO_DEVICE),
             "memcpy from bytes_to_ptr")
    check(acl.util.ptr_to_bytes(dev, 32) == payload, "ptr_to_bytes copies the device memory")
    check(acl.util.ptr_to_bytes(dev, 0) == b"", "ptr_to_bytes of 0 bytes")

    # Host memory.
    host, ret = acl.rt.malloc_host(64)
    check_ok(ret, "acl.rt.malloc_host(64)")
    check_ok(acl.rt.memcpy(host, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), "memcpy device->host (malloc_host)")
    check(acl.util.ptr_to_bytes(host, 32) == payload, "malloc_host memory holds the copy")
    check_ok(acl.rt.free_host(host), "acl.rt.free_host")
    return dev


def test_events(stream):
    start, ret = acl.rt.create_event()
    check_ok(ret, "create_event")
    end, ret = acl.rt.create_event()
    check_ok(ret, "create_event")
    check_ok(acl.rt.record_event(start, stream), "record_event(start)")
    check_ok(acl.rt.record_event(end, stream), "record_event(end)")
    check_ok(acl.rt.synchronize_event(end), "synchronize_event")
    status, ret = acl.rt.query_event_status(end)
    check_ok(ret, "query_event_status")
    check(status == 1, "a synchronised event is complete (1), got %r" % status)
    ms, ret = acl.rt.event_elapsed_time(start, end)
    check_ok(ret, "event_elapsed_time")
    check(isinstance(ms, float) and ms >= 0.0, "elapsed time is a non-negative float, got %r" % ms)
    check_ok(acl.rt.synchronize_device(), "synchronize_device")
    check_ok(acl.rt.destroy_event(start), "destroy_event")
    check_ok(acl.rt.destroy_event(end), "destroy_event")


def test_buffers_and_descs(dev):
    buf = acl.create_data_buffer(dev, 64)
    check(buf != 0, "create_data_buffer: %s" % acl.get_recent_err_msg())
    check(acl.get_data_buffer_addr(buf) == dev, "get_data_buffer_addr")
    check(acl.get_data_buffer_size_v2(buf) == 64, "get_data_buffer_size_v2")
    check(acl.get_data_buffer_size(buf) == 64, "get_data_buffer_size")
    check_ok(acl.update_data_buffer(buf, dev, 32), "update_data_buffer")
    check(acl.get_data_buffer_size_v2(buf) == 32, "size after update_data_buffer")

    desc = acl.create_tensor_desc(ACL_FLOAT, [1, 3, 4, 4], ACL_FORMAT_NCHW)
    check(desc != 0, "create_tensor_desc: %s" % acl.get_recent_err_msg())
    check(acl.get_tensor_desc_type(desc) == ACL_FLOAT, "get_tensor_desc_type")
    check(acl.get_tensor_desc_format(desc) == ACL_FORMAT_NCHW, "get_tensor_desc_format")
    check(acl.get_tensor_desc_num_dims(desc) == 4, "get_tensor_desc_num_dims")
    check(acl.get_tensor_desc_element_count(desc) == 48, "get_tensor_desc_element_count")
    check(acl.get_tensor_desc_size(desc) == 192, "get_tensor_desc_size")
    check(acl.get_tensor_desc_dim_v2(desc, 1) == (3, ACL_SUCCESS), "get_tensor_desc_dim_v2(desc, 1)")
    _, ret = acl.get_tensor_desc_dim_v2(desc, 9)
    check(ret != ACL_SUCCESS, "get_tensor_desc_dim_v2 out of range fails")

    dataset = acl.mdl.create_dataset()
    check(dataset != 0, "create_dataset")
    same, ret = acl.mdl.add_dataset_buffer(dataset, buf)
    check_ok(ret, "add_dataset_buffer")
    check(same == dataset, "add_dataset_buffer returns the dataset")
    check(acl.mdl.get_dataset_num_buffers(dataset) == 1, "get_dataset_num_buffers")
    check(acl.mdl.get_dataset_buffer(dataset, 0) == buf, "get_dataset_buffer")
    same, ret = acl.mdl.set_dataset_tensor_desc(dataset, desc, 0)
    check_ok(ret, "set_dataset_tensor_desc")
    stored = acl.mdl.get_dataset_tensor_desc(dataset, 0)  # the dataset keeps a copy, as CANN does
    check(stored != 0 and acl.get_tensor_desc_element_count(stored) == 48, "get_dataset_tensor_desc")
    check(acl.mdl.get_dataset_tensor_desc(dataset, 5) == 0, "get_dataset_tensor_desc past the end is 0")
    check_ok(acl.mdl.destroy_dataset(dataset), "destroy_dataset")
    check(acl.destroy_tensor_desc(desc) is None, "destroy_tensor_desc returns None")
    check_ok(acl.destroy_data_buffer(buf), "destroy_data_buffer")

    check(acl.float_to_float16(1.0) == 0x3C00, "float_to_float16(1.0)")
    check(acl.float16_to_float(0xC000) == -2.0, "float16_to_float(0xC000)")


def test_model():
    if not os.path.exists(ADD_MODEL):
        print("pyacl smoke: %s not found, model checks skipped" % ADD_MODEL)
        return
    model_id, ret = acl.mdl.load_from_file(ADD_MODEL)
    check_ok(ret, "load_from_file(%s)" % ADD_MODEL)
    desc = acl.mdl.create_desc()
    check_ok(acl.mdl.get_desc(desc, model_id), "mdl.get_desc")
    check(acl.mdl.get_num_inputs(desc) == 2 and acl.mdl.get_num_outputs(desc) == 1, "2 inputs, 1 output")
    dims, ret = acl.mdl.get_input_dims(desc, 1)
    check_ok(ret, "get_input_dims")
    check(dims == {"name": "b", "dimCount": 4, "dims": [1, 3, 4, 4]}, "input dims, got %r" % dims)
    check(acl.mdl.get_input_index_by_name(desc, "b") == (1, ACL_SUCCESS), "get_input_index_by_name")
    check(acl.mdl.get_output_name_by_index(desc, 0) == "y", "get_output_name_by_index")

    a = np.random.default_rng(1).standard_normal((1, 3, 4, 4)).astype(np.float32)
    b = np.random.default_rng(2).standard_normal((1, 3, 4, 4)).astype(np.float32)
    inputs = acl.mdl.create_dataset()
    outputs = acl.mdl.create_dataset()
    allocations = []
    for i, host in enumerate((a, b)):
        size = acl.mdl.get_input_size_by_index(desc, i)
        check(size == host.nbytes, "input %d size %d" % (i, size))
        ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ok(ret, "malloc for input")
        allocations.append(ptr)
        check_ok(acl.rt.memcpy(ptr, size, acl.util.numpy_to_ptr(host), size, ACL_MEMCPY_HOST_TO_DEVICE),
                 "memcpy input")
        _, ret = acl.mdl.add_dataset_buffer(inputs, acl.create_data_buffer(ptr, size))
        check_ok(ret, "add_dataset_buffer(inputs)")
    out_size = acl.mdl.get_output_size_by_index(desc, 0)
    out_ptr, ret = acl.rt.malloc(out_size, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ok(ret, "malloc for output")
    allocations.append(out_ptr)
    _, ret = acl.mdl.add_dataset_buffer(outputs, acl.create_data_buffer(out_ptr, out_size))
    check_ok(ret, "add_dataset_buffer(outputs)")

    check_ok(acl.mdl.execute(model_id, inputs, outputs), "mdl.execute")
    y = acl.util.ptr_to_numpy(out_ptr, (1, 3, 4, 4), NPY_FLOAT32).copy()
    # atc's default precision mode for Ascend310 computes the Add in float16.
    check(np.allclose(y, a + b, rtol=2e-3, atol=2e-3), "model output is a + b, got %r" % (y - (a + b),))

    for ds in (inputs, outputs):
        for i in range(acl.mdl.get_dataset_num_buffers(ds)):
            check_ok(acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i)), "destroy_data_buffer")
        check_ok(acl.mdl.destroy_dataset(ds), "destroy_dataset")
    for ptr in allocations:
        check_ok(acl.rt.free(ptr), "free")
    check_ok(acl.mdl.destroy_desc(desc), "destroy_desc")
    check_ok(acl.mdl.unload(model_id), "unload")


def test_errors():
    # C-level failures come back through ret, with a message.
    host = np.zeros(8, dtype=np.float32)
    ret = acl.rt.free(acl.util.numpy_to_ptr(host))
    check(ret != ACL_SUCCESS, "free of a pointer malloc did not give must fail")
    check(acl.get_recent_err_msg() != "", "get_recent_err_msg() says why free failed")
    _, ret = acl.mdl.load_from_file("/nonexistent/model.om")
    check(ret != ACL_SUCCESS, "load_from_file of a missing file fails")
    check(acl.get_recent_err_msg() != "", "get_recent_err_msg() says why the load failed")

    # Wrong Python types raise TypeError.
    check_raises(TypeError, acl.rt.malloc, "64", 0)
    check_raises(TypeError, acl.rt.free, 1.5)
    check_raises(TypeError, acl.rt.set_device, "0")
    check_raises(TypeError, acl.util.numpy_to_ptr, 5)
    check_raises(TypeError, acl.util.numpy_to_ptr, np.zeros((4, 4), dtype=np.float32)[:, 1])
    check_raises(TypeError, acl.util.bytes_to_ptr, "not bytes")
    check_raises(TypeError, acl.util.ptr_to_numpy, 0, 4, NPY_FLOAT32)
    check_raises(TypeError, acl.create_tensor_desc, ACL_FLOAT, "1,2", ACL_FORMAT_NCHW)
    check_raises(OverflowError, acl.rt.free, -1)
    check_raises(ValueError, acl.util.ptr_to_numpy, 0, (4,), NPY_FLOAT32)
    check_raises(ValueError, acl.util.ptr_to_numpy, 0, (4,), 99)
    # A read-only buffer still gives a pointer.
    check(acl.util.numpy_to_ptr(b"abcd") != 0, "numpy_to_ptr of a read-only buffer")


def main():
    test_module_layout()
    context, stream = test_runtime()
    dev = test_memory(stream)
    test_events(stream)
    test_buffers_and_descs(dev)
    test_model()
    test_errors()

    check_ok(acl.rt.free(dev), "acl.rt.free")
    check_ok(acl.rt.destroy_stream(stream), "destroy_stream")
    check_ok(acl.rt.destroy_context(context), "destroy_context")
    check_ok(acl.rt.reset_device(0), "reset_device(0)")
    check_ok(acl.finalize(), "acl.finalize()")
    print("pyacl smoke: ok")


if __name__ == "__main__":
    try:
        main()
    except SmokeFailure as failure:
        print("pyacl smoke: FAILED: %s" % failure, file=sys.stderr)
        sys.exit(1)
