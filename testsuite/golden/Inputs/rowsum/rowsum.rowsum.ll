; ModuleID = 'rowsum.tess'
source_filename = "rowsum.tess"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define ptx_kernel void @rowsum_BM16_BN256(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) noalias writeonly captures(none) %s, i32 %M, i32 %N) local_unnamed_addr #0 {
entry:
  %0 = tail call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %0, 31
  %warp = lshr i32 %0, 5
  %1 = sext i32 %N to i64
  %2 = shl nuw nsw i32 %lane, 2
  %3 = icmp eq i32 %lane, 0
  %4 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = shl i32 %4, 4
  %6 = sext i32 %5 to i64
  %7 = mul nsw i64 %1, %6
  %8 = sub i32 %M, %5
  %9 = add i32 %N, 255
  %10 = sdiv i32 %9, 256
  %11 = icmp sgt i32 %9, 255
  br i1 %11, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %12 = zext nneg i32 %warp to i64
  %13 = or disjoint i64 %6, %12
  %14 = mul nsw i64 %13, %1
  %15 = zext nneg i32 %2 to i64
  %16 = getelementptr float, ptr addrspace(1) %x, i64 %14
  %17 = getelementptr float, ptr addrspace(1) %16, i64 %15
  %18 = getelementptr float, ptr addrspace(1) %x, i64 %7
  %19 = ptrtoint ptr addrspace(1) %18 to i64
  %20 = shl nuw nsw i64 %1, 2
  %21 = or i64 %20, %19
  %22 = and i64 %21, 15
  %23 = icmp eq i64 %22, 0
  %24 = or disjoint i32 %warp, 12
  %25 = or disjoint i32 %2, 131
  %26 = icmp slt i32 %24, %8
  %27 = icmp samesign ult i32 %25, %N
  %28 = and i1 %27, %23
  %29 = and i1 %26, %28
  br i1 %29, label %ld.tile, label %ld.edge

if.end:                                           ; preds = %ld.tile, %ld.edge, %entry
  %30 = phi float [ 0.000000e+00, %entry ], [ %81, %ld.tile ], [ %148, %ld.edge ]
  %31 = phi float [ 0.000000e+00, %entry ], [ %83, %ld.tile ], [ %153, %ld.edge ]
  %32 = phi float [ 0.000000e+00, %entry ], [ %85, %ld.tile ], [ %158, %ld.edge ]
  %33 = phi float [ 0.000000e+00, %entry ], [ %87, %ld.tile ], [ %163, %ld.edge ]
  %34 = phi float [ 0.000000e+00, %entry ], [ %89, %ld.tile ], [ %168, %ld.edge ]
  %35 = phi float [ 0.000000e+00, %entry ], [ %91, %ld.tile ], [ %173, %ld.edge ]
  %36 = phi float [ 0.000000e+00, %entry ], [ %93, %ld.tile ], [ %178, %ld.edge ]
  %37 = phi float [ 0.000000e+00, %entry ], [ %95, %ld.tile ], [ %181, %ld.edge ]
  %38 = phi float [ 0.000000e+00, %entry ], [ %97, %ld.tile ], [ %187, %ld.edge ]
  %39 = phi float [ 0.000000e+00, %entry ], [ %99, %ld.tile ], [ %190, %ld.edge ]
  %40 = phi float [ 0.000000e+00, %entry ], [ %101, %ld.tile ], [ %193, %ld.edge ]
  %41 = phi float [ 0.000000e+00, %entry ], [ %103, %ld.tile ], [ %196, %ld.edge ]
  %42 = phi float [ 0.000000e+00, %entry ], [ %105, %ld.tile ], [ %199, %ld.edge ]
  %43 = phi float [ 0.000000e+00, %entry ], [ %107, %ld.tile ], [ %202, %ld.edge ]
  %44 = phi float [ 0.000000e+00, %entry ], [ %109, %ld.tile ], [ %205, %ld.edge ]
  %45 = phi float [ 0.000000e+00, %entry ], [ %111, %ld.tile ], [ %208, %ld.edge ]
  %46 = phi float [ 0.000000e+00, %entry ], [ %113, %ld.tile ], [ %214, %ld.edge ]
  %47 = phi float [ 0.000000e+00, %entry ], [ %115, %ld.tile ], [ %217, %ld.edge ]
  %48 = phi float [ 0.000000e+00, %entry ], [ %117, %ld.tile ], [ %220, %ld.edge ]
  %49 = phi float [ 0.000000e+00, %entry ], [ %119, %ld.tile ], [ %223, %ld.edge ]
  %50 = phi float [ 0.000000e+00, %entry ], [ %121, %ld.tile ], [ %226, %ld.edge ]
  %51 = phi float [ 0.000000e+00, %entry ], [ %123, %ld.tile ], [ %229, %ld.edge ]
  %52 = phi float [ 0.000000e+00, %entry ], [ %125, %ld.tile ], [ %232, %ld.edge ]
  %53 = phi float [ 0.000000e+00, %entry ], [ %127, %ld.tile ], [ %235, %ld.edge ]
  %54 = phi float [ 0.000000e+00, %entry ], [ %129, %ld.tile ], [ %239, %ld.edge ]
  %55 = phi float [ 0.000000e+00, %entry ], [ %131, %ld.tile ], [ %242, %ld.edge ]
  %56 = phi float [ 0.000000e+00, %entry ], [ %133, %ld.tile ], [ %245, %ld.edge ]
  %57 = phi float [ 0.000000e+00, %entry ], [ %135, %ld.tile ], [ %248, %ld.edge ]
  %58 = phi float [ 0.000000e+00, %entry ], [ %137, %ld.tile ], [ %251, %ld.edge ]
  %59 = phi float [ 0.000000e+00, %entry ], [ %139, %ld.tile ], [ %254, %ld.edge ]
  %60 = phi float [ 0.000000e+00, %entry ], [ %141, %ld.tile ], [ %257, %ld.edge ]
  %61 = phi float [ 0.000000e+00, %entry ], [ %143, %ld.tile ], [ %260, %ld.edge ]
  %62 = zext nneg i32 %warp to i64
  br i1 %11, label %for.body.lr.ph, label %for.exit

for.body.lr.ph:                                   ; preds = %if.end
  %63 = mul nuw nsw i64 %1, %62
  %64 = zext nneg i32 %2 to i64
  %65 = getelementptr float, ptr addrspace(1) %x, i64 %7
  %66 = shl nuw nsw i64 %1, 2
  %67 = or disjoint i32 %warp, 12
  %68 = or disjoint i32 %2, 131
  %69 = icmp slt i32 %67, %8
  %70 = icmp slt i32 %warp, %8
  %71 = or disjoint i32 %2, 1
  %72 = or disjoint i32 %2, 2
  %73 = or disjoint i32 %2, 3
  %74 = or disjoint i32 %2, 128
  %75 = or disjoint i32 %2, 129
  %76 = or disjoint i32 %2, 130
  %77 = or disjoint i32 %warp, 4
  %78 = icmp slt i32 %77, %8
  %79 = or disjoint i32 %warp, 8
  %.idx4 = shl nuw nsw i64 %1, 5
  %80 = icmp slt i32 %79, %8
  %.idx5 = mul nuw nsw i64 %1, 48
  br label %for.body

ld.tile:                                          ; preds = %if.then
  %81 = load float, ptr addrspace(1) %17, align 16
  %82 = getelementptr inbounds nuw i8, ptr addrspace(1) %17, i64 4
  %83 = load float, ptr addrspace(1) %82, align 4
  %84 = getelementptr inbounds nuw i8, ptr addrspace(1) %17, i64 8
  %85 = load float, ptr addrspace(1) %84, align 8
  %86 = getelementptr inbounds nuw i8, ptr addrspace(1) %17, i64 12
  %87 = load float, ptr addrspace(1) %86, align 4
  %88 = getelementptr i8, ptr addrspace(1) %17, i64 512
  %89 = load float, ptr addrspace(1) %88, align 16
  %90 = getelementptr i8, ptr addrspace(1) %17, i64 516
  %91 = load float, ptr addrspace(1) %90, align 4
  %92 = getelementptr i8, ptr addrspace(1) %17, i64 520
  %93 = load float, ptr addrspace(1) %92, align 8
  %94 = getelementptr i8, ptr addrspace(1) %17, i64 524
  %95 = load float, ptr addrspace(1) %94, align 4
  %96 = getelementptr float, ptr addrspace(1) %17, i64 %20
  %97 = load float, ptr addrspace(1) %96, align 16
  %98 = getelementptr inbounds nuw i8, ptr addrspace(1) %96, i64 4
  %99 = load float, ptr addrspace(1) %98, align 4
  %100 = getelementptr inbounds nuw i8, ptr addrspace(1) %96, i64 8
  %101 = load float, ptr addrspace(1) %100, align 8
  %102 = getelementptr inbounds nuw i8, ptr addrspace(1) %96, i64 12
  %103 = load float, ptr addrspace(1) %102, align 4
  %104 = getelementptr i8, ptr addrspace(1) %96, i64 512
  %105 = load float, ptr addrspace(1) %104, align 16
  %106 = getelementptr i8, ptr addrspace(1) %96, i64 516
  %107 = load float, ptr addrspace(1) %106, align 4
  %108 = getelementptr i8, ptr addrspace(1) %96, i64 520
  %109 = load float, ptr addrspace(1) %108, align 8
  %110 = getelementptr i8, ptr addrspace(1) %96, i64 524
  %111 = load float, ptr addrspace(1) %110, align 4
  %.idx2 = shl nuw nsw i64 %1, 5
  %112 = getelementptr i8, ptr addrspace(1) %17, i64 %.idx2
  %113 = load float, ptr addrspace(1) %112, align 16
  %114 = getelementptr inbounds nuw i8, ptr addrspace(1) %112, i64 4
  %115 = load float, ptr addrspace(1) %114, align 4
  %116 = getelementptr inbounds nuw i8, ptr addrspace(1) %112, i64 8
  %117 = load float, ptr addrspace(1) %116, align 8
  %118 = getelementptr inbounds nuw i8, ptr addrspace(1) %112, i64 12
  %119 = load float, ptr addrspace(1) %118, align 4
  %120 = getelementptr i8, ptr addrspace(1) %112, i64 512
  %121 = load float, ptr addrspace(1) %120, align 16
  %122 = getelementptr i8, ptr addrspace(1) %112, i64 516
  %123 = load float, ptr addrspace(1) %122, align 4
  %124 = getelementptr i8, ptr addrspace(1) %112, i64 520
  %125 = load float, ptr addrspace(1) %124, align 8
  %126 = getelementptr i8, ptr addrspace(1) %112, i64 524
  %127 = load float, ptr addrspace(1) %126, align 4
  %.idx3 = mul nuw nsw i64 %1, 48
  %128 = getelementptr i8, ptr addrspace(1) %17, i64 %.idx3
  %129 = load float, ptr addrspace(1) %128, align 16
  %130 = getelementptr inbounds nuw i8, ptr addrspace(1) %128, i64 4
  %131 = load float, ptr addrspace(1) %130, align 4
  %132 = getelementptr inbounds nuw i8, ptr addrspace(1) %128, i64 8
  %133 = load float, ptr addrspace(1) %132, align 8
  %134 = getelementptr inbounds nuw i8, ptr addrspace(1) %128, i64 12
  %135 = load float, ptr addrspace(1) %134, align 4
  %136 = getelementptr i8, ptr addrspace(1) %128, i64 512
  %137 = load float, ptr addrspace(1) %136, align 16
  %138 = getelementptr i8, ptr addrspace(1) %128, i64 516
  %139 = load float, ptr addrspace(1) %138, align 4
  %140 = getelementptr i8, ptr addrspace(1) %128, i64 520
  %141 = load float, ptr addrspace(1) %140, align 8
  %142 = getelementptr i8, ptr addrspace(1) %128, i64 524
  %143 = load float, ptr addrspace(1) %142, align 4
  br label %if.end

ld.edge:                                          ; preds = %if.then
  %144 = icmp slt i32 %warp, %8
  %145 = icmp samesign ult i32 %2, %N
  %146 = and i1 %144, %145
  %147 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %17, i1 %146, i32 0) #3
  %148 = bitcast i32 %147 to float
  %149 = or disjoint i32 %2, 1
  %150 = icmp samesign ult i32 %149, %N
  %151 = and i1 %144, %150
  %152 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %17, i1 %151, i32 0) #3
  %153 = bitcast i32 %152 to float
  %154 = or disjoint i32 %2, 2
  %155 = icmp samesign ult i32 %154, %N
  %156 = and i1 %144, %155
  %157 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %17, i1 %156, i32 0) #3
  %158 = bitcast i32 %157 to float
  %159 = or disjoint i32 %2, 3
  %160 = icmp samesign ult i32 %159, %N
  %161 = and i1 %144, %160
  %162 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %17, i1 %161, i32 0) #3
  %163 = bitcast i32 %162 to float
  %164 = or disjoint i32 %2, 128
  %165 = icmp samesign ult i32 %164, %N
  %166 = and i1 %144, %165
  %167 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %17, i1 %166, i32 0) #3
  %168 = bitcast i32 %167 to float
  %169 = or disjoint i32 %2, 129
  %170 = icmp samesign ult i32 %169, %N
  %171 = and i1 %144, %170
  %172 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %17, i1 %171, i32 0) #3
  %173 = bitcast i32 %172 to float
  %174 = or disjoint i32 %2, 130
  %175 = icmp samesign ult i32 %174, %N
  %176 = and i1 %144, %175
  %177 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %17, i1 %176, i32 0) #3
  %178 = bitcast i32 %177 to float
  %179 = and i1 %144, %27
  %180 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %17, i1 %179, i32 0) #3
  %181 = bitcast i32 %180 to float
  %182 = or disjoint i32 %warp, 4
  %183 = getelementptr float, ptr addrspace(1) %17, i64 %20
  %184 = icmp slt i32 %182, %8
  %185 = and i1 %184, %145
  %186 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %185, i32 0) #3
  %187 = bitcast i32 %186 to float
  %188 = and i1 %184, %150
  %189 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %188, i32 0) #3
  %190 = bitcast i32 %189 to float
  %191 = and i1 %184, %155
  %192 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %191, i32 0) #3
  %193 = bitcast i32 %192 to float
  %194 = and i1 %184, %160
  %195 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %194, i32 0) #3
  %196 = bitcast i32 %195 to float
  %197 = and i1 %184, %165
  %198 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %197, i32 0) #3
  %199 = bitcast i32 %198 to float
  %200 = and i1 %184, %170
  %201 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %200, i32 0) #3
  %202 = bitcast i32 %201 to float
  %203 = and i1 %184, %175
  %204 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %203, i32 0) #3
  %205 = bitcast i32 %204 to float
  %206 = and i1 %184, %27
  %207 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %206, i32 0) #3
  %208 = bitcast i32 %207 to float
  %209 = or disjoint i32 %warp, 8
  %.idx = shl nuw nsw i64 %1, 5
  %210 = getelementptr i8, ptr addrspace(1) %17, i64 %.idx
  %211 = icmp slt i32 %209, %8
  %212 = and i1 %211, %145
  %213 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %210, i1 %212, i32 0) #3
  %214 = bitcast i32 %213 to float
  %215 = and i1 %211, %150
  %216 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %210, i1 %215, i32 0) #3
  %217 = bitcast i32 %216 to float
  %218 = and i1 %211, %155
  %219 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %210, i1 %218, i32 0) #3
  %220 = bitcast i32 %219 to float
  %221 = and i1 %211, %160
  %222 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %210, i1 %221, i32 0) #3
  %223 = bitcast i32 %222 to float
  %224 = and i1 %211, %165
  %225 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %210, i1 %224, i32 0) #3
  %226 = bitcast i32 %225 to float
  %227 = and i1 %211, %170
  %228 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %210, i1 %227, i32 0) #3
  %229 = bitcast i32 %228 to float
  %230 = and i1 %211, %175
  %231 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %210, i1 %230, i32 0) #3
  %232 = bitcast i32 %231 to float
  %233 = and i1 %211, %27
  %234 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %210, i1 %233, i32 0) #3
  %235 = bitcast i32 %234 to float
  %.idx1 = mul nuw nsw i64 %1, 48
  %236 = getelementptr i8, ptr addrspace(1) %17, i64 %.idx1
  %237 = and i1 %26, %145
  %238 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %236, i1 %237, i32 0) #3
  %239 = bitcast i32 %238 to float
  %240 = and i1 %26, %150
  %241 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %236, i1 %240, i32 0) #3
  %242 = bitcast i32 %241 to float
  %243 = and i1 %26, %155
  %244 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %236, i1 %243, i32 0) #3
  %245 = bitcast i32 %244 to float
  %246 = and i1 %26, %160
  %247 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %236, i1 %246, i32 0) #3
  %248 = bitcast i32 %247 to float
  %249 = and i1 %26, %165
  %250 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %236, i1 %249, i32 0) #3
  %251 = bitcast i32 %250 to float
  %252 = and i1 %26, %170
  %253 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %236, i1 %252, i32 0) #3
  %254 = bitcast i32 %253 to float
  %255 = and i1 %26, %175
  %256 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %236, i1 %255, i32 0) #3
  %257 = bitcast i32 %256 to float
  %258 = and i1 %26, %27
  %259 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %236, i1 %258, i32 0) #3
  %260 = bitcast i32 %259 to float
  br label %if.end

for.body:                                         ; preds = %for.body.lr.ph, %ld.tile.done3
  %261 = phi float [ %61, %for.body.lr.ph ], [ %517, %ld.tile.done3 ]
  %262 = phi float [ %60, %for.body.lr.ph ], [ %516, %ld.tile.done3 ]
  %263 = phi float [ %59, %for.body.lr.ph ], [ %515, %ld.tile.done3 ]
  %264 = phi float [ %58, %for.body.lr.ph ], [ %514, %ld.tile.done3 ]
  %265 = phi float [ %57, %for.body.lr.ph ], [ %513, %ld.tile.done3 ]
  %266 = phi float [ %56, %for.body.lr.ph ], [ %512, %ld.tile.done3 ]
  %267 = phi float [ %55, %for.body.lr.ph ], [ %511, %ld.tile.done3 ]
  %268 = phi float [ %54, %for.body.lr.ph ], [ %510, %ld.tile.done3 ]
  %269 = phi float [ %53, %for.body.lr.ph ], [ %509, %ld.tile.done3 ]
  %270 = phi float [ %52, %for.body.lr.ph ], [ %508, %ld.tile.done3 ]
  %271 = phi float [ %51, %for.body.lr.ph ], [ %507, %ld.tile.done3 ]
  %272 = phi float [ %50, %for.body.lr.ph ], [ %506, %ld.tile.done3 ]
  %273 = phi float [ %49, %for.body.lr.ph ], [ %505, %ld.tile.done3 ]
  %274 = phi float [ %48, %for.body.lr.ph ], [ %504, %ld.tile.done3 ]
  %275 = phi float [ %47, %for.body.lr.ph ], [ %503, %ld.tile.done3 ]
  %276 = phi float [ %46, %for.body.lr.ph ], [ %502, %ld.tile.done3 ]
  %277 = phi float [ %45, %for.body.lr.ph ], [ %501, %ld.tile.done3 ]
  %278 = phi float [ %44, %for.body.lr.ph ], [ %500, %ld.tile.done3 ]
  %279 = phi float [ %43, %for.body.lr.ph ], [ %499, %ld.tile.done3 ]
  %280 = phi float [ %42, %for.body.lr.ph ], [ %498, %ld.tile.done3 ]
  %281 = phi float [ %41, %for.body.lr.ph ], [ %497, %ld.tile.done3 ]
  %282 = phi float [ %40, %for.body.lr.ph ], [ %496, %ld.tile.done3 ]
  %283 = phi float [ %39, %for.body.lr.ph ], [ %495, %ld.tile.done3 ]
  %284 = phi float [ %38, %for.body.lr.ph ], [ %494, %ld.tile.done3 ]
  %285 = phi float [ %37, %for.body.lr.ph ], [ %493, %ld.tile.done3 ]
  %286 = phi float [ %36, %for.body.lr.ph ], [ %492, %ld.tile.done3 ]
  %287 = phi float [ %35, %for.body.lr.ph ], [ %491, %ld.tile.done3 ]
  %288 = phi float [ %34, %for.body.lr.ph ], [ %490, %ld.tile.done3 ]
  %289 = phi float [ %33, %for.body.lr.ph ], [ %489, %ld.tile.done3 ]
  %290 = phi float [ %32, %for.body.lr.ph ], [ %488, %ld.tile.done3 ]
  %291 = phi float [ %31, %for.body.lr.ph ], [ %487, %ld.tile.done3 ]
  %292 = phi float [ %30, %for.body.lr.ph ], [ %486, %ld.tile.done3 ]
  %293 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %629, %ld.tile.done3 ]
  %294 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %628, %ld.tile.done3 ]
  %295 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %627, %ld.tile.done3 ]
  %296 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %626, %ld.tile.done3 ]
  %iv11 = phi i32 [ 0, %for.body.lr.ph ], [ %297, %ld.tile.done3 ]
  %297 = add nuw nsw i32 %iv11, 1
  %298 = icmp slt i32 %297, %10
  %299 = select i1 %298, i32 %297, i32 %iv11
  %300 = shl i32 %299, 8
  %301 = sext i32 %300 to i64
  %302 = sub i32 %N, %300
  %303 = getelementptr float, ptr addrspace(1) %65, i64 %301
  %304 = getelementptr float, ptr addrspace(1) %303, i64 %63
  %305 = getelementptr float, ptr addrspace(1) %304, i64 %64
  %306 = ptrtoint ptr addrspace(1) %303 to i64
  %307 = or i64 %66, %306
  %308 = and i64 %307, 15
  %309 = icmp eq i64 %308, 0
  %310 = icmp slt i32 %68, %302
  %311 = and i1 %310, %309
  %312 = and i1 %69, %311
  br i1 %312, label %ld.tile1, label %ld.edge2

for.exit:                                         ; preds = %ld.tile.done3, %if.end
  %.lcssa10 = phi float [ 0.000000e+00, %if.end ], [ %626, %ld.tile.done3 ]
  %.lcssa9 = phi float [ 0.000000e+00, %if.end ], [ %627, %ld.tile.done3 ]
  %.lcssa8 = phi float [ 0.000000e+00, %if.end ], [ %628, %ld.tile.done3 ]
  %.lcssa = phi float [ 0.000000e+00, %if.end ], [ %629, %ld.tile.done3 ]
  %313 = getelementptr float, ptr addrspace(1) %s, i64 %6
  %314 = getelementptr float, ptr addrspace(1) %313, i64 %62
  %315 = icmp slt i32 %warp, %8
  %316 = and i1 %3, %315
  br i1 %316, label %st.in, label %st.end

ld.tile1:                                         ; preds = %for.body
  %317 = load float, ptr addrspace(1) %305, align 16
  %318 = getelementptr inbounds nuw i8, ptr addrspace(1) %305, i64 4
  %319 = load float, ptr addrspace(1) %318, align 4
  %320 = getelementptr inbounds nuw i8, ptr addrspace(1) %305, i64 8
  %321 = load float, ptr addrspace(1) %320, align 8
  %322 = getelementptr inbounds nuw i8, ptr addrspace(1) %305, i64 12
  %323 = load float, ptr addrspace(1) %322, align 4
  %324 = getelementptr i8, ptr addrspace(1) %305, i64 512
  %325 = load float, ptr addrspace(1) %324, align 16
  %326 = getelementptr i8, ptr addrspace(1) %305, i64 516
  %327 = load float, ptr addrspace(1) %326, align 4
  %328 = getelementptr i8, ptr addrspace(1) %305, i64 520
  %329 = load float, ptr addrspace(1) %328, align 8
  %330 = getelementptr i8, ptr addrspace(1) %305, i64 524
  %331 = load float, ptr addrspace(1) %330, align 4
  %332 = getelementptr float, ptr addrspace(1) %305, i64 %66
  %333 = load float, ptr addrspace(1) %332, align 16
  %334 = getelementptr inbounds nuw i8, ptr addrspace(1) %332, i64 4
  %335 = load float, ptr addrspace(1) %334, align 4
  %336 = getelementptr inbounds nuw i8, ptr addrspace(1) %332, i64 8
  %337 = load float, ptr addrspace(1) %336, align 8
  %338 = getelementptr inbounds nuw i8, ptr addrspace(1) %332, i64 12
  %339 = load float, ptr addrspace(1) %338, align 4
  %340 = getelementptr i8, ptr addrspace(1) %332, i64 512
  %341 = load float, ptr addrspace(1) %340, align 16
  %342 = getelementptr i8, ptr addrspace(1) %332, i64 516
  %343 = load float, ptr addrspace(1) %342, align 4
  %344 = getelementptr i8, ptr addrspace(1) %332, i64 520
  %345 = load float, ptr addrspace(1) %344, align 8
  %346 = getelementptr i8, ptr addrspace(1) %332, i64 524
  %347 = load float, ptr addrspace(1) %346, align 4
  %348 = getelementptr i8, ptr addrspace(1) %305, i64 %.idx4
  %349 = load float, ptr addrspace(1) %348, align 16
  %350 = getelementptr inbounds nuw i8, ptr addrspace(1) %348, i64 4
  %351 = load float, ptr addrspace(1) %350, align 4
  %352 = getelementptr inbounds nuw i8, ptr addrspace(1) %348, i64 8
  %353 = load float, ptr addrspace(1) %352, align 8
  %354 = getelementptr inbounds nuw i8, ptr addrspace(1) %348, i64 12
  %355 = load float, ptr addrspace(1) %354, align 4
  %356 = getelementptr i8, ptr addrspace(1) %348, i64 512
  %357 = load float, ptr addrspace(1) %356, align 16
  %358 = getelementptr i8, ptr addrspace(1) %348, i64 516
  %359 = load float, ptr addrspace(1) %358, align 4
  %360 = getelementptr i8, ptr addrspace(1) %348, i64 520
  %361 = load float, ptr addrspace(1) %360, align 8
  %362 = getelementptr i8, ptr addrspace(1) %348, i64 524
  %363 = load float, ptr addrspace(1) %362, align 4
  %364 = getelementptr i8, ptr addrspace(1) %305, i64 %.idx5
  %365 = load float, ptr addrspace(1) %364, align 16
  %366 = getelementptr inbounds nuw i8, ptr addrspace(1) %364, i64 4
  %367 = load float, ptr addrspace(1) %366, align 4
  %368 = getelementptr inbounds nuw i8, ptr addrspace(1) %364, i64 8
  %369 = load float, ptr addrspace(1) %368, align 8
  %370 = getelementptr inbounds nuw i8, ptr addrspace(1) %364, i64 12
  %371 = load float, ptr addrspace(1) %370, align 4
  %372 = getelementptr i8, ptr addrspace(1) %364, i64 512
  %373 = load float, ptr addrspace(1) %372, align 16
  %374 = getelementptr i8, ptr addrspace(1) %364, i64 516
  %375 = load float, ptr addrspace(1) %374, align 4
  %376 = getelementptr i8, ptr addrspace(1) %364, i64 520
  %377 = load float, ptr addrspace(1) %376, align 8
  %378 = getelementptr i8, ptr addrspace(1) %364, i64 524
  %379 = load float, ptr addrspace(1) %378, align 4
  br label %ld.tile.done3

ld.edge2:                                         ; preds = %for.body
  %380 = icmp slt i32 %2, %302
  %381 = and i1 %70, %380
  %382 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %305, i1 %381, i32 0) #3
  %383 = bitcast i32 %382 to float
  %384 = icmp slt i32 %71, %302
  %385 = and i1 %70, %384
  %386 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %305, i1 %385, i32 0) #3
  %387 = bitcast i32 %386 to float
  %388 = icmp slt i32 %72, %302
  %389 = and i1 %70, %388
  %390 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %305, i1 %389, i32 0) #3
  %391 = bitcast i32 %390 to float
  %392 = icmp slt i32 %73, %302
  %393 = and i1 %70, %392
  %394 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %305, i1 %393, i32 0) #3
  %395 = bitcast i32 %394 to float
  %396 = icmp slt i32 %74, %302
  %397 = and i1 %70, %396
  %398 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %305, i1 %397, i32 0) #3
  %399 = bitcast i32 %398 to float
  %400 = icmp slt i32 %75, %302
  %401 = and i1 %70, %400
  %402 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %305, i1 %401, i32 0) #3
  %403 = bitcast i32 %402 to float
  %404 = icmp slt i32 %76, %302
  %405 = and i1 %70, %404
  %406 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %305, i1 %405, i32 0) #3
  %407 = bitcast i32 %406 to float
  %408 = and i1 %70, %310
  %409 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %305, i1 %408, i32 0) #3
  %410 = bitcast i32 %409 to float
  %411 = getelementptr float, ptr addrspace(1) %305, i64 %66
  %412 = and i1 %78, %380
  %413 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %411, i1 %412, i32 0) #3
  %414 = bitcast i32 %413 to float
  %415 = and i1 %78, %384
  %416 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %411, i1 %415, i32 0) #3
  %417 = bitcast i32 %416 to float
  %418 = and i1 %78, %388
  %419 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %411, i1 %418, i32 0) #3
  %420 = bitcast i32 %419 to float
  %421 = and i1 %78, %392
  %422 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %411, i1 %421, i32 0) #3
  %423 = bitcast i32 %422 to float
  %424 = and i1 %78, %396
  %425 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %411, i1 %424, i32 0) #3
  %426 = bitcast i32 %425 to float
  %427 = and i1 %78, %400
  %428 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %411, i1 %427, i32 0) #3
  %429 = bitcast i32 %428 to float
  %430 = and i1 %78, %404
  %431 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %411, i1 %430, i32 0) #3
  %432 = bitcast i32 %431 to float
  %433 = and i1 %78, %310
  %434 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %411, i1 %433, i32 0) #3
  %435 = bitcast i32 %434 to float
  %436 = getelementptr i8, ptr addrspace(1) %305, i64 %.idx4
  %437 = and i1 %80, %380
  %438 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %436, i1 %437, i32 0) #3
  %439 = bitcast i32 %438 to float
  %440 = and i1 %80, %384
  %441 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %436, i1 %440, i32 0) #3
  %442 = bitcast i32 %441 to float
  %443 = and i1 %80, %388
  %444 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %436, i1 %443, i32 0) #3
  %445 = bitcast i32 %444 to float
  %446 = and i1 %80, %392
  %447 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %436, i1 %446, i32 0) #3
  %448 = bitcast i32 %447 to float
  %449 = and i1 %80, %396
  %450 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %436, i1 %449, i32 0) #3
  %451 = bitcast i32 %450 to float
  %452 = and i1 %80, %400
  %453 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %436, i1 %452, i32 0) #3
  %454 = bitcast i32 %453 to float
  %455 = and i1 %80, %404
  %456 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %436, i1 %455, i32 0) #3
  %457 = bitcast i32 %456 to float
  %458 = and i1 %80, %310
  %459 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %436, i1 %458, i32 0) #3
  %460 = bitcast i32 %459 to float
  %461 = getelementptr i8, ptr addrspace(1) %305, i64 %.idx5
  %462 = and i1 %69, %380
  %463 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %461, i1 %462, i32 0) #3
  %464 = bitcast i32 %463 to float
  %465 = and i1 %69, %384
  %466 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %461, i1 %465, i32 0) #3
  %467 = bitcast i32 %466 to float
  %468 = and i1 %69, %388
  %469 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %461, i1 %468, i32 0) #3
  %470 = bitcast i32 %469 to float
  %471 = and i1 %69, %392
  %472 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %461, i1 %471, i32 0) #3
  %473 = bitcast i32 %472 to float
  %474 = and i1 %69, %396
  %475 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %461, i1 %474, i32 0) #3
  %476 = bitcast i32 %475 to float
  %477 = and i1 %69, %400
  %478 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %461, i1 %477, i32 0) #3
  %479 = bitcast i32 %478 to float
  %480 = and i1 %69, %404
  %481 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %461, i1 %480, i32 0) #3
  %482 = bitcast i32 %481 to float
  %483 = and i1 %69, %310
  %484 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %461, i1 %483, i32 0) #3
  %485 = bitcast i32 %484 to float
  br label %ld.tile.done3

ld.tile.done3:                                    ; preds = %ld.edge2, %ld.tile1
  %486 = phi float [ %317, %ld.tile1 ], [ %383, %ld.edge2 ]
  %487 = phi float [ %319, %ld.tile1 ], [ %387, %ld.edge2 ]
  %488 = phi float [ %321, %ld.tile1 ], [ %391, %ld.edge2 ]
  %489 = phi float [ %323, %ld.tile1 ], [ %395, %ld.edge2 ]
  %490 = phi float [ %325, %ld.tile1 ], [ %399, %ld.edge2 ]
  %491 = phi float [ %327, %ld.tile1 ], [ %403, %ld.edge2 ]
  %492 = phi float [ %329, %ld.tile1 ], [ %407, %ld.edge2 ]
  %493 = phi float [ %331, %ld.tile1 ], [ %410, %ld.edge2 ]
  %494 = phi float [ %333, %ld.tile1 ], [ %414, %ld.edge2 ]
  %495 = phi float [ %335, %ld.tile1 ], [ %417, %ld.edge2 ]
  %496 = phi float [ %337, %ld.tile1 ], [ %420, %ld.edge2 ]
  %497 = phi float [ %339, %ld.tile1 ], [ %423, %ld.edge2 ]
  %498 = phi float [ %341, %ld.tile1 ], [ %426, %ld.edge2 ]
  %499 = phi float [ %343, %ld.tile1 ], [ %429, %ld.edge2 ]
  %500 = phi float [ %345, %ld.tile1 ], [ %432, %ld.edge2 ]
  %501 = phi float [ %347, %ld.tile1 ], [ %435, %ld.edge2 ]
  %502 = phi float [ %349, %ld.tile1 ], [ %439, %ld.edge2 ]
  %503 = phi float [ %351, %ld.tile1 ], [ %442, %ld.edge2 ]
  %504 = phi float [ %353, %ld.tile1 ], [ %445, %ld.edge2 ]
  %505 = phi float [ %355, %ld.tile1 ], [ %448, %ld.edge2 ]
  %506 = phi float [ %357, %ld.tile1 ], [ %451, %ld.edge2 ]
  %507 = phi float [ %359, %ld.tile1 ], [ %454, %ld.edge2 ]
  %508 = phi float [ %361, %ld.tile1 ], [ %457, %ld.edge2 ]
  %509 = phi float [ %363, %ld.tile1 ], [ %460, %ld.edge2 ]
  %510 = phi float [ %365, %ld.tile1 ], [ %464, %ld.edge2 ]
  %511 = phi float [ %367, %ld.tile1 ], [ %467, %ld.edge2 ]
  %512 = phi float [ %369, %ld.tile1 ], [ %470, %ld.edge2 ]
  %513 = phi float [ %371, %ld.tile1 ], [ %473, %ld.edge2 ]
  %514 = phi float [ %373, %ld.tile1 ], [ %476, %ld.edge2 ]
  %515 = phi float [ %375, %ld.tile1 ], [ %479, %ld.edge2 ]
  %516 = phi float [ %377, %ld.tile1 ], [ %482, %ld.edge2 ]
  %517 = phi float [ %379, %ld.tile1 ], [ %485, %ld.edge2 ]
  %518 = fadd contract float %292, %291
  %519 = fadd contract float %518, %290
  %520 = fadd contract float %519, %289
  %521 = fadd contract float %520, %288
  %522 = fadd contract float %521, %287
  %523 = fadd contract float %522, %286
  %524 = fadd contract float %523, %285
  %525 = fadd contract float %284, %283
  %526 = fadd contract float %525, %282
  %527 = fadd contract float %526, %281
  %528 = fadd contract float %527, %280
  %529 = fadd contract float %528, %279
  %530 = fadd contract float %529, %278
  %531 = fadd contract float %530, %277
  %532 = fadd contract float %276, %275
  %533 = fadd contract float %532, %274
  %534 = fadd contract float %533, %273
  %535 = fadd contract float %534, %272
  %536 = fadd contract float %535, %271
  %537 = fadd contract float %536, %270
  %538 = fadd contract float %537, %269
  %539 = fadd contract float %268, %267
  %540 = fadd contract float %539, %266
  %541 = fadd contract float %540, %265
  %542 = fadd contract float %541, %264
  %543 = fadd contract float %542, %263
  %544 = fadd contract float %543, %262
  %545 = fadd contract float %544, %261
  %546 = bitcast float %524 to i32
  %547 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %546, i32 1, i32 31)
  %548 = bitcast i32 %547 to float
  %549 = fadd contract float %524, %548
  %550 = bitcast float %531 to i32
  %551 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %550, i32 1, i32 31)
  %552 = bitcast i32 %551 to float
  %553 = fadd contract float %531, %552
  %554 = bitcast float %538 to i32
  %555 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %554, i32 1, i32 31)
  %556 = bitcast i32 %555 to float
  %557 = fadd contract float %538, %556
  %558 = bitcast float %545 to i32
  %559 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %558, i32 1, i32 31)
  %560 = bitcast i32 %559 to float
  %561 = fadd contract float %545, %560
  %562 = bitcast float %549 to i32
  %563 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %562, i32 2, i32 31)
  %564 = bitcast i32 %563 to float
  %565 = fadd contract float %549, %564
  %566 = bitcast float %553 to i32
  %567 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %566, i32 2, i32 31)
  %568 = bitcast i32 %567 to float
  %569 = fadd contract float %553, %568
  %570 = bitcast float %557 to i32
  %571 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %570, i32 2, i32 31)
  %572 = bitcast i32 %571 to float
  %573 = fadd contract float %557, %572
  %574 = bitcast float %561 to i32
  %575 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %574, i32 2, i32 31)
  %576 = bitcast i32 %575 to float
  %577 = fadd contract float %561, %576
  %578 = bitcast float %565 to i32
  %579 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %578, i32 4, i32 31)
  %580 = bitcast i32 %579 to float
  %581 = fadd contract float %565, %580
  %582 = bitcast float %569 to i32
  %583 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %582, i32 4, i32 31)
  %584 = bitcast i32 %583 to float
  %585 = fadd contract float %569, %584
  %586 = bitcast float %573 to i32
  %587 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %586, i32 4, i32 31)
  %588 = bitcast i32 %587 to float
  %589 = fadd contract float %573, %588
  %590 = bitcast float %577 to i32
  %591 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %590, i32 4, i32 31)
  %592 = bitcast i32 %591 to float
  %593 = fadd contract float %577, %592
  %594 = bitcast float %581 to i32
  %595 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %594, i32 8, i32 31)
  %596 = bitcast i32 %595 to float
  %597 = fadd contract float %581, %596
  %598 = bitcast float %585 to i32
  %599 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %598, i32 8, i32 31)
  %600 = bitcast i32 %599 to float
  %601 = fadd contract float %585, %600
  %602 = bitcast float %589 to i32
  %603 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %602, i32 8, i32 31)
  %604 = bitcast i32 %603 to float
  %605 = fadd contract float %589, %604
  %606 = bitcast float %593 to i32
  %607 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %606, i32 8, i32 31)
  %608 = bitcast i32 %607 to float
  %609 = fadd contract float %593, %608
  %610 = bitcast float %597 to i32
  %611 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %610, i32 16, i32 31)
  %612 = bitcast i32 %611 to float
  %613 = fadd contract float %597, %612
  %614 = bitcast float %601 to i32
  %615 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %614, i32 16, i32 31)
  %616 = bitcast i32 %615 to float
  %617 = fadd contract float %601, %616
  %618 = bitcast float %605 to i32
  %619 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %618, i32 16, i32 31)
  %620 = bitcast i32 %619 to float
  %621 = fadd contract float %605, %620
  %622 = bitcast float %609 to i32
  %623 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %622, i32 16, i32 31)
  %624 = bitcast i32 %623 to float
  %625 = fadd contract float %609, %624
  %626 = fadd contract float %296, %613
  %627 = fadd contract float %295, %617
  %628 = fadd contract float %294, %621
  %629 = fadd contract float %293, %625
  %exitcond.not = icmp eq i32 %297, %10
  br i1 %exitcond.not, label %for.exit, label %for.body

st.in:                                            ; preds = %for.exit
  store float %.lcssa10, ptr addrspace(1) %314, align 4
  br label %st.end

st.end:                                           ; preds = %st.in, %for.exit
  %630 = or disjoint i32 %warp, 4
  %631 = icmp slt i32 %630, %8
  %632 = and i1 %3, %631
  br i1 %632, label %st.in4, label %st.end5

st.in4:                                           ; preds = %st.end
  %633 = getelementptr i8, ptr addrspace(1) %314, i64 16
  store float %.lcssa9, ptr addrspace(1) %633, align 4
  br label %st.end5

st.end5:                                          ; preds = %st.in4, %st.end
  %634 = or disjoint i32 %warp, 8
  %635 = icmp slt i32 %634, %8
  %636 = and i1 %3, %635
  br i1 %636, label %st.in6, label %st.end7

st.in6:                                           ; preds = %st.end5
  %637 = getelementptr i8, ptr addrspace(1) %314, i64 32
  store float %.lcssa8, ptr addrspace(1) %637, align 4
  br label %st.end7

st.end7:                                          ; preds = %st.in6, %st.end5
  %638 = or disjoint i32 %warp, 12
  %639 = icmp slt i32 %638, %8
  %640 = and i1 %3, %639
  br i1 %640, label %st.in8, label %st.end9

st.in8:                                           ; preds = %st.end7
  %641 = getelementptr i8, ptr addrspace(1) %314, i64 48
  store float %.lcssa, ptr addrspace(1) %641, align 4
  br label %st.end9

st.end9:                                          ; preds = %st.in8, %st.end7
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #2

attributes #0 = { nounwind "nvvm.maxntid"="128,1,1" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #3 = { nounwind }
